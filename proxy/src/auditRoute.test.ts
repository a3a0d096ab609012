// /proxy/audit's answers: a context whose API server writes no log this server follows is told why;
// for the local one, the events of the IDs asked, and a long poll that answers when a new stage is
// written (not at its timeout) and when the page goes away.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditAnswer } from '../../protocol/audit';
import { auditRoutes } from './auditRoute';

const ev = (id: string, stage: string) => `${JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Event', level: 'Metadata', auditID: id, stage, requestURI: '/api', verb: 'watch', user: {} })}\n`;
const kubeconfig = { list: () => ({ current: 'local', contexts: [{ name: 'local', server: 'https://127.0.0.1:6443/', current: true }, { name: 'remote', server: 'https://example.com', current: false }] }) } as never;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'audit-route-'));
  const path = join(dir, 'audit.log');
  writeFileSync(path, ev('a', 'RequestReceived'));
  const routes = auditRoutes([{ server: 'https://127.0.0.1:6443', path }], kubeconfig);
  cleanups.push(() => {
    routes.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { path, routes };
}
const q = (o: Record<string, string | string[]>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) for (const x of [v].flat()) p.append(k, x);
  return p;
};

describe('auditRoutes', () => {
  it('says why a context has none, and answers the IDs asked for the local one', async () => {
    const { routes } = setup();
    const remote = (await routes.answer(q({ context: 'remote', id: 'a' }))) as AuditAnswer;
    expect(remote.source).toBe('none');
    expect(remote.reason).toMatch(/not the local control plane.*Import/);
    const local = (await routes.answer(q({ context: 'local', id: ['a', 'unknown', '../../etc'] }))) as AuditAnswer;
    expect(local).toEqual({ source: 'log', events: { a: [expect.objectContaining({ stage: 'RequestReceived' })] } });
  });

  it('a long poll answers as soon as a new stage is written', async () => {
    const { path, routes } = setup();
    const pending = routes.answer(q({ context: 'local', id: 'a', after: '1', wait: '25000' }));
    expect(pending).toBeInstanceOf(Promise);
    appendFileSync(path, ev('a', 'ResponseStarted'));
    const answer = await pending;
    expect(answer.events.a!.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted']);
  });

  it('a long poll ends when the page goes away', async () => {
    const { routes } = setup();
    const gone = new AbortController();
    const pending = routes.answer(q({ context: 'local', id: 'a', after: '1', wait: '25000' }), gone.signal);
    gone.abort();
    expect((await pending).events.a).toHaveLength(1);
  });
});
