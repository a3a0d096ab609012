// A watch pane says what it has heard, against the real server: "connecting" until the server's
// response headers arrive, "watching" only after them. Two ways a server goes quiet after a pane
// lost its stream: a TCP relay in front of kube-apiserver that stops forwarding (accepts, passes
// nothing on), and kube-apiserver itself stopped with SIGSTOP (the kernel still accepts its
// connections). In both the pane must never say "watching" for a stream nothing has been heard on,
// and once the server answers again it must hold every object.
//
// The pane here talks to an explorer server of the spec's own, whose kubeconfig points at the
// relay, so that the spec can cut and freeze the connections between the proxy and kube-apiserver.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startExplorerServer } from '../proxy/src/server';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

interface Relay {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Stops passing bytes on, either way, on every connection, new ones too (they are still accepted). */
  freeze(): void;
  /** Passes on what was held back, in order, and forwards again. */
  thaw(): void;
  /** Closes every connection open now (both sides), as a network fault would. */
  cutAll(): void;
  close(): Promise<void>;
}

/** A real TCP relay to kube-apiserver (TLS passes through it untouched). */
async function relay(target: URL): Promise<Relay> {
  const open = new Set<Socket>();
  let accepted = 0;
  let frozen = false;
  let held: (() => void)[] = [];
  const pass = (to: Socket, b: Buffer) => {
    if (frozen) held.push(() => to.write(b));
    else to.write(b);
  };
  const server = createServer((client: Socket) => {
    accepted++;
    const up = connect(Number(target.port), target.hostname);
    open.add(client);
    open.add(up);
    client.on('data', (b: Buffer) => pass(up, b));
    up.on('data', (b: Buffer) => pass(client, b));
    const end = () => {
      open.delete(client);
      open.delete(up);
      client.destroy();
      up.destroy();
    };
    for (const s of [client, up]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      const h = held;
      held = [];
      for (const f of h) f();
    },
    cutAll: () => {
      for (const s of [...open]) s.destroy();
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const s of [...open]) s.destroy();
        server.close(() => ok());
      }),
  };
}

/** An explorer server whose kubeconfig reaches kube-apiserver through `r`. */
async function explorerThrough(kube: Kube, r: Relay): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-relay-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = new URL(kube.server);
  const text = readFileSync(process.env.KUBE_TEST_KUBECONFIG!, 'utf8');
  if (!text.includes(server.origin)) throw new Error(`the test kubeconfig does not name ${server.origin}`);
  writeFileSync(kubeconfig, text.replaceAll(server.origin, `${server.protocol}//${server.hostname}:${r.port}`), { mode: 0o600 });
  const explorer = await startExplorerServer({ port: 0, kubeconfigPath: kubeconfig, staticDir: 'dist', log: () => {} });
  return {
    url: explorer.url,
    close: async () => {
      await explorer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const LABEL = 'e2e=honest';

function watchUrl(base: string, ns: string): string {
  const panes = [{ id: 'h0', group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', labelSelector: LABEL, bookmarks: true, asTable: false, max: 2000 }];
  return new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, base).toString();
}

async function create(kube: Kube, ns: string, name: string): Promise<void> {
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels: { e2e: 'honest' } } });
  if (r.status !== 201) throw new Error(`creating ${name}: ${r.status} ${r.body}`);
}

/** Records every text the pane's state badge shows from now on (window.__states). */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const el = document.querySelector('[aria-label="Watch state"]')!;
    const w = window as unknown as { __states: string[] };
    w.__states = [el.textContent ?? ''];
    new MutationObserver(() => {
      const t = el.textContent ?? '';
      if (w.__states[w.__states.length - 1] !== t) w.__states.push(t);
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
}

const recorded = (page: Page) => page.evaluate(() => (window as unknown as { __states: string[] }).__states.slice());

/** What the badge said from the moment it first stopped saying "watching". */
function sinceTheStreamWasLost(states: string[]): string[] {
  const i = states.findIndex((s) => s !== 'watching');
  return i < 0 ? [] : states.slice(i);
}

async function stateNames(pane: Locator): Promise<string[]> {
  await pane.getByRole('tab', { name: 'Current state' }).click();
  const cells = await pane.getByRole('table', { name: 'Current state' }).getByRole('row').evaluateAll((rows) => rows.map((r) => r.querySelector('[role="cell"]')?.textContent ?? '').filter(Boolean));
  await pane.getByRole('tab', { name: 'Timeline' }).click();
  return cells.sort();
}

test('a frozen relay between the proxy and kube-apiserver: the pane says connecting, never watching, until the server answers, then holds every object', async ({ page, kube, ns }) => {
  test.setTimeout(150_000);
  const r = await relay(new URL(kube.server));
  const explorer = await explorerThrough(kube, r);
  try {
    const before = Array.from({ length: 6 }, (_, i) => `before-${i}`);
    for (const n of before) await create(kube, ns, n);
    await page.goto(watchUrl(explorer.url, ns));
    const pane = page.getByRole('article').first();
    const badge = pane.getByRole('status', { name: 'Watch state' });
    await expect(badge).toHaveText('watching');
    await expect(pane.getByText('· 6 objects', { exact: true })).toBeVisible();
    await recordStates(page);

    // The relay stops forwarding and drops the connections it had: the pane's stream is lost, and
    // every attempt to watch again reaches a relay that accepts and passes nothing on.
    const acceptedBefore = r.accepted();
    r.freeze();
    r.cutAll();
    const during = Array.from({ length: 6 }, (_, i) => `during-${i}`);
    for (const n of during) await create(kube, ns, n);
    await expect.poll(() => r.accepted(), { timeout: 60_000 }).toBeGreaterThan(acceptedBefore);
    await expect(badge).toHaveText('connecting');
    await expect(pane.getByLabel('Staleness')).toContainText(/waiting for the server’s answer for \d+ s/);
    // The proxy gives up on the frozen connection and the pane tries again (a second connection
    // through the relay): still nothing heard, still not watching.
    await expect.poll(() => r.accepted(), { timeout: 60_000 }).toBeGreaterThan(acceptedBefore + 1);
    await expect(badge).toHaveText('connecting');
    const frozen = sinceTheStreamWasLost(await recorded(page));
    expect(frozen, 'the badge while the relay was frozen').toContain('connecting');
    expect(frozen, 'the badge while the relay was frozen').not.toContain('watching');
    await expect(pane.getByText('· 6 objects', { exact: true })).toBeVisible();

    r.thaw();
    await expect(badge).toHaveText('watching', { timeout: 60_000 });
    await expect(pane.getByText('· 12 objects', { exact: true })).toBeVisible();
    expect(await stateNames(pane)).toEqual([...before, ...during].map((n) => `${ns}/${n}`).sort());
  } finally {
    r.thaw();
    await explorer.close();
    await r.close();
  }
});

test('kube-apiserver stopped (SIGSTOP) when the pane watches again: it says connecting, never watching, until SIGCONT, then holds every object', async ({ page, kube, ns }) => {
  test.setTimeout(150_000);
  const r = await relay(new URL(kube.server));
  const explorer = await explorerThrough(kube, r);
  let stopped = false;
  try {
    const before = Array.from({ length: 4 }, (_, i) => `before-${i}`);
    for (const n of before) await create(kube, ns, n);
    await page.goto(watchUrl(explorer.url, ns));
    const pane = page.getByRole('article').first();
    const badge = pane.getByRole('status', { name: 'Watch state' });
    await expect(badge).toHaveText('watching');
    await expect(pane.getByText('· 4 objects', { exact: true })).toBeVisible();
    await recordStates(page);

    // Frozen server; the connection the pane watched on is cut, so it must watch again, and the
    // relay forwards the new attempt to a kube-apiserver that accepts and answers nothing.
    const acceptedBefore = r.accepted();
    await kube.signalApiServer('SIGSTOP');
    stopped = true;
    r.cutAll();
    await expect.poll(() => r.accepted(), { timeout: 60_000 }).toBeGreaterThan(acceptedBefore);
    await expect(badge).toHaveText('connecting');
    const frozen = sinceTheStreamWasLost(await recorded(page));
    expect(frozen, 'the badge while kube-apiserver was stopped').toContain('connecting');
    expect(frozen, 'the badge while kube-apiserver was stopped').not.toContain('watching');
    // The top bar says so too, for a kube-apiserver this explorer server did not start (no
    // supervisor to tell it): its /readyz probe gets no answer within 5 s (issue 43: it said
    // "connected" for 90 s).
    const indicator = page.getByLabel('Connection status');
    await expect(indicator).toContainText('not answering', { timeout: 30_000 });

    await kube.signalApiServer('SIGCONT');
    stopped = false;
    await create(kube, ns, 'after');
    await expect(badge).toHaveText('watching', { timeout: 60_000 });
    await expect(pane.getByText('· 5 objects', { exact: true })).toBeVisible({ timeout: 60_000 });
    expect(await stateNames(pane)).toEqual([...before, 'after'].map((n) => `${ns}/${n}`).sort());
    await expect(indicator).toContainText('connected', { timeout: 60_000 });
  } finally {
    if (stopped) await kube.signalApiServer('SIGCONT');
    await explorer.close();
    await r.close();
  }
});
