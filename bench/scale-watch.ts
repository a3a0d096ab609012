// The watch part of the scale bench (scale.ts): a watch pane whose streaming list covers every
// seeded Pod, in headless Chromium. The rate its initial events reach the screen against the same
// stream read by Node through the proxy (no page), the longest main-thread task meanwhile (Long
// Tasks API), the renderer's memory holding them (/proc; the watch worker's heap by CDP), and then,
// while the pane holds them, the live lag of writes made at the highest rate the server accepts
// (liveLag.ts, the watch bench's method).
//
// Knobs: SCALE_WATCH_VIEW=state shows the pane's Current state tab over the stream (default: the
// Timeline); SCALE_WATCH_COMPARE=<dir> streams the same list first into another build of the SPA
// (vite build --outDir <dir>), for a change measured side by side under the same load;
// SCALE_WATCH_TRACE=1 traces the stream and prints what its longest tasks were made of;
// SCALE_WATCH_PROFILE=1 prints CPU profiles of the page and the worker over it;
// SCALE_WATCH_LIVE_SECONDS (default 20) how long the live writes last, SCALE_WATCH_LIVE_WRITERS
// (default 4) how many are in flight; SCALE_WATCH_ENCODING=json (default), protobuf, or both: the
// pane's encoding (docs/guide/watch.md); with both, a JSON pane then a Protobuf pane stream the
// same list, each in a renderer of its own, each against its floor (Node through the proxy in the
// same encoding) and the same direct streams, and the live lag is measured on the last.
import { request as httpsRequest } from 'node:https';
import type { Page } from '@playwright/test';
import { rendererRssMiB } from './cpu';
import { heapAfterGc } from './lists';
import { directSender, lagOf, pct, STREAMING_LIST_QUERY, streamingListFloor, writeAtRate } from './liveLag';
import { traceLongTasks } from './longTaskTrace';
import { LONG_TASKS, longTasks, type ScaleTarget } from './scale-browser';
import { attachWorkers } from './workerProfile';
import { WebSocket } from 'ws';
import { MuxClient, type WebSocketConstructor } from '../src/k8s/client/mux';
import { ProtobufWatchFramer, readWatchFrame } from '../src/codecs/protobuf/watchStream';

const TRACE = process.env.SCALE_WATCH_TRACE === '1';
const PROFILE = process.env.SCALE_WATCH_PROFILE === '1';
const VIEW = process.env.SCALE_WATCH_VIEW === 'state' ? 'Current state' : 'Timeline';
const COMPARE = process.env.SCALE_WATCH_COMPARE;
const LIVE_SECONDS = Number(process.env.SCALE_WATCH_LIVE_SECONDS ?? 20);
type Encoding = 'json' | 'protobuf';
const ENCODINGS: Encoding[] = process.env.SCALE_WATCH_ENCODING === 'both' ? ['json', 'protobuf'] : process.env.SCALE_WATCH_ENCODING === 'protobuf' ? ['protobuf'] : ['json'];
/**
 * Writers in flight, and a target rate no local server takes: each writer waits on its response,
 * so the achieved rate is what the server accepts. Few: with 20,000 Pods held, 4 writers had 196
 * Pod patches/s accepted (commit→screen p50 54 ms) and 96 had 111/s (p50 1.2 s): more writers in
 * flight lowered what the server accepted and delayed its watch events (same machine, minutes apart).
 */
const LIVE_WRITERS = Number(process.env.SCALE_WATCH_LIVE_WRITERS ?? 4);
const LIVE_TARGET = 10_000;
/** The Pods the live writes patch, in turn (the first namespace's). */
const LIVE_PODS = 200;
/** The issue's goal for the live p99, commit→screen. */
const LIVE_GOAL_MS = 250;

/** What the watch pane reports through window.__explorerWatchRendered (see WatchPane.tsx). */
const WATCH_MARKS = `
  window.__scaleWatch = { added: 0, firstAt: 0, firstPerf: 0, lastAt: 0, modified: 0, rendered: {} };
  window.__explorerWatchRendered = (_pane, events, at, counts) => {
    const s = window.__scaleWatch;
    s.added = counts.ADDED ?? 0;
    if (s.added > 0 && s.firstAt === 0) { s.firstAt = at; s.firstPerf = performance.now(); }
    s.lastAt = at;
    for (const e of events) if (e.type === 'MODIFIED' && e.resourceVersion) { s.rendered[e.resourceVersion] = at; s.modified++; }
  };
`;

interface WatchMarks {
  added: number;
  firstAt: number;
  firstPerf: number;
  lastAt: number;
  /** MODIFIED events put on screen, and when (Date.now()) by resourceVersion. */
  modified: number;
  rendered: Record<string, number>;
}

const marks = (page: Page) => page.evaluate(() => (window as unknown as { __scaleWatch: WatchMarks }).__scaleWatch);

/** The same streaming list read by Node through the proxy, no page: initial ADDED events per second. */
const streamFloor = (t: ScaleTarget, path: string, encoding: Encoding) => streamingListFloor(t.url, t.token, path, encoding);

/**
 * The same streaming list read straight from kube-apiserver by Node (no proxy, no page), as JSON
 * or as Protobuf (`application/vnd.kubernetes.protobuf;type=watch`: each event a frame of a 4-byte
 * big-endian length and a protobuf Event): events per second from the first byte to the
 * initial-events-end bookmark, frames counted and not decoded, so that what is timed is the
 * server's delivery.
 */
async function directStream(t: ScaleTarget, protobuf: boolean): Promise<{ rate: number; events: number; mib: number }> {
  const { server, creds } = t.apiserver;
  const accept = protobuf ? 'application/vnd.kubernetes.protobuf;type=watch' : 'application/json';
  const END = Buffer.from('k8s.io/initial-events-end');
  return new Promise((ok, fail) => {
    const req = httpsRequest(new URL(`/api/v1/pods?${STREAMING_LIST_QUERY}`, server), { ca: creds.ca, cert: creds.cert, key: creds.key, headers: { Accept: accept } }, (res) => {
      if (res.statusCode !== 200) return fail(new Error(`direct stream (${accept}): ${res.statusCode}`));
      let first = 0;
      let events = 0;
      let bytes = 0;
      let rest = Buffer.alloc(0);
      const done = () => {
        const s = (performance.now() - first) / 1000;
        req.destroy();
        ok({ rate: events / s, events, mib: bytes / 1048576 });
      };
      res.on('data', (c: Buffer) => {
        if (!first) first = performance.now();
        bytes += c.length;
        let buf = rest.length ? Buffer.concat([rest, c]) : c;
        for (;;) {
          let frame: Buffer;
          if (protobuf) {
            if (buf.length < 4) break;
            const n = buf.readUInt32BE(0);
            if (buf.length < 4 + n) break;
            frame = buf.subarray(4, 4 + n);
            buf = buf.subarray(4 + n);
          } else {
            const nl = buf.indexOf(10);
            if (nl < 0) break;
            frame = buf.subarray(0, nl);
            buf = buf.subarray(nl + 1);
          }
          // The bookmark is not one of the list's events; it ends the initial ones.
          if (frame.length < 4096 && frame.includes(END)) return done();
          events++;
        }
        rest = Buffer.from(buf);
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * The same Protobuf streaming list read by Node through the proxy's mux WebSocket (the page's
 * MuxClient with its flow control, the `ws` package for the socket), framed and each event's
 * ObjectMeta head read as the pane's worker does: the pane's own path without Chromium.
 */
async function muxFloor(t: ScaleTarget): Promise<number> {
  const mux = new MuxClient({ url: new URL('/proxy/mux', t.url.replace(/^http/, 'ws')).toString(), token: () => t.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  const ac = new AbortController();
  try {
    const st = await mux.open({ context: 'local-admin', path: `/api/v1/pods?${STREAMING_LIST_QUERY}`, headers: { Accept: 'application/vnd.kubernetes.protobuf;type=watch' }, signal: ac.signal });
    const framer = new ProtobufWatchFramer();
    let first = 0;
    let added = 0;
    for await (const c of st.body) {
      if (!first) first = performance.now();
      for (const f of framer.push(c)) {
        const e = readWatchFrame(f);
        if (e.type === 'ADDED') added++;
        else if (e.type === 'BOOKMARK' && e.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true') {
          st.close();
          return added / ((performance.now() - first) / 1000);
        }
      }
    }
    throw new Error('the mux stream ended before its initial-events-end bookmark');
  } finally {
    ac.abort();
    mux.close();
  }
}

/**
 * The leanest reader the page itself allows, in the same Chromium: a WebSocket of its own to the
 * proxy's mux on the page's main thread, where the pane's socket is too (no flow-control window,
 * so the proxy sends as fast as the socket takes it), which only finds each event's end (the
 * length prefix, or the newline of JSON) and stops at the initial-events-end bookmark; nothing
 * decoded, kept or drawn. What it reaches is what this browser can receive of the stream here:
 * the pane cannot be faster, whatever it does with the events. On the main thread, not in a
 * worker, because Playwright's DevTools session (Network domain) receives the payload of every
 * WebSocket frame a page's socket takes, and of none a worker's takes: both sides pay that here.
 * A function's source, evaluated in the page with the job as its argument.
 */
const BARE_READER = `(job) => new Promise((resolve) => {
  const { url, token, path, accept, protobuf } = job;
  const END = 'k8s.io/initial-events-end';
  const td = new TextDecoder();
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  let first = 0, events = 0, bytes = 0, need = -1, hdr = 0, hdrN = 0, small = [];
  const done = () => { const s = (performance.now() - first) / 1000; ws.close(); resolve({ rate: events / s, events, mib: bytes / 1048576 }); };
  // A frame under 4 KiB may be the bookmark (a Pod is larger): its bytes are kept to look inside.
  const endOf = () => { const f = small; small = []; if (f && f.length && td.decode(new Uint8Array(f)).includes(END)) { done(); return true; } events++; return false; };
  ws.onerror = () => resolve({ error: 'the bare reader could not open the mux' });
  ws.onopen = () => { ws.send(JSON.stringify({ type: 'auth', token })); ws.send(JSON.stringify({ type: 'open', id: 1, context: 'local-admin', path, headers: { Accept: accept } })); };
  ws.onmessage = (ev) => {
    if (typeof ev.data === 'string') { if (JSON.parse(ev.data).type === 'end') resolve({ error: 'the stream ended before its bookmark' }); return; }
    if (!first) first = performance.now();
    const u = new Uint8Array(ev.data, 4);
    bytes += u.length;
    let i = 0;
    while (i < u.length) {
      if (protobuf) {
        if (need < 0) { hdr = (hdr << 8) | u[i++]; if (++hdrN === 4) { need = hdr >>> 0; hdr = 0; hdrN = 0; small = need < 4096 ? [] : null; } continue; }
        const k = Math.min(need, u.length - i);
        if (small) for (let j = i; j < i + k; j++) small.push(u[j]);
        need -= k; i += k;
        if (need === 0) { need = -1; if (endOf()) return; }
      } else {
        const nl = u.indexOf(10, i);
        const to = nl < 0 ? u.length : nl;
        if (small) { if (small.length + to - i < 4096) for (let j = i; j < to; j++) small.push(u[j]); else small = null; }
        i = to;
        if (nl >= 0) { i++; if (endOf()) return; small = []; }
      }
    }
  };
})`;

/** Runs BARE_READER in a page of the explorer's origin (the mux takes no other), in a renderer of its own. */
async function browserFloor(t: ScaleTarget, encoding: Encoding): Promise<{ rate: number; events: number; mib: number }> {
  const context = await t.browser.newContext();
  try {
    const page = await context.newPage();
    // The page's favicon: the explorer's origin, without the app's own requests competing.
    await page.goto(new URL('/favicon.svg', t.url).toString());
    const job = { url: new URL('/proxy/mux', t.url.replace(/^http/, 'ws')).toString(), token: t.token, path: `/api/v1/pods?${STREAMING_LIST_QUERY}`, accept: encoding === 'protobuf' ? 'application/vnd.kubernetes.protobuf;type=watch' : 'application/json', protobuf: encoding === 'protobuf' };
    const r = (await page.evaluate(`(${BARE_READER})(${JSON.stringify(job)})`)) as { rate: number; events: number; mib: number; error?: string };
    if (r.error) throw new Error(`the browser's bare reader (${encoding}): ${r.error}`);
    if (r.events !== t.objects) throw new Error(`the browser's bare reader (${encoding}) counted ${r.events} events, not ${t.objects}`);
    return r;
  } finally {
    await context.close();
  }
}

const sumHeap = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** A page for the pane (on `namespace`, or every namespace), in a renderer of its own; `show` opens it with its view chosen. */
async function newPane(t: ScaleTarget, url: string, namespace: string | undefined, profile: boolean, encoding: Encoding) {
  const context = await t.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(WATCH_MARKS + LONG_TASKS);
  const page = await context.newPage();
  const workers = await attachWorkers(page, { profile });
  const panes = JSON.stringify([{ id: 'scale', group: '', version: 'v1', resource: 'pods', ...(namespace ? { namespace } : {}), mode: 'stream', bookmarks: true, asTable: false, max: 2000, ...(encoding === 'protobuf' ? { encoding } : {}) }]);
  const show = async () => {
    await page.goto(`${url}?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes })}`);
    // The tab is chosen as soon as the pane shows: the first batches may render in the Timeline.
    if (VIEW !== 'Timeline') await page.getByRole('tab', { name: VIEW }).click({ timeout: 120_000 });
  };
  return { context, page, workers, show };
}

/** Opens the pane and waits for every initial event on screen (bounded); the rate, and the main-thread tasks over 50 ms meanwhile with where they fell. */
async function streamOnScreen(t: ScaleTarget, page: Page, show: () => Promise<void>, label: string, trace: boolean): Promise<{ rate: number; added: number; longest: number; count: number }> {
  // Bounded: at 1,000 events/s 150,000 would take 150 s; a pane slower than that (or a renderer
  // out of memory) is reported with what it reached, not waited for.
  const timeout = Math.max(120_000, t.objects);
  const wait = async () => {
    await show();
    return page
      .waitForFunction((n) => (window as unknown as { __scaleWatch: WatchMarks }).__scaleWatch.added >= n, t.objects, { timeout, polling: 50 })
      .then(() => true, (e: unknown) => (page.isClosed() ? Promise.reject(e instanceof Error ? e : new Error(String(e))) : false));
  };
  let reached = false;
  if (trace) {
    // Traced from before the navigation: the summary places the page's times after it.
    const summary = await traceLongTasks(t.browser, page, async () => {
      reached = await wait();
      return (await marks(page)).firstPerf - 200;
    });
    t.log(summary);
  } else reached = await wait();
  const st = await marks(page);
  if (!reached) t.log(`watch${label}: only ${st.added.toLocaleString('en-US')} of ${t.objects.toLocaleString('en-US')} initial events on screen after ${timeout / 1000} s (the rate below is over those)`);
  const rate = st.added / Math.max(0.001, (st.lastAt - st.firstAt) / 1000);
  const long = await longTasks(page, String(st.firstPerf - 200));
  // Where they fell: ms after the first commit with events (negative: just before it).
  const when = await page.evaluate((from) => (window as unknown as { __longTasks: [number, number][] }).__longTasks.filter(([s]) => s >= from - 200).map(([s, d]) => `${Math.round(s - from)}+${Math.round(d)}`), st.firstPerf);
  t.log(`watch${label} (${VIEW} shown): a streaming list of ${st.added.toLocaleString('en-US')} Pods on screen in ${st.lastAt - st.firstAt} ms (first to last commit): ${rate.toFixed(0)} events/s; main-thread tasks over 50 ms meanwhile: ${long.count} (longest ${long.longest.toFixed(0)} ms)${when.length ? ` at [start+duration ms] ${when.join(' ')}` : ''}`);
  if (long.count > 0) t.log(`watch${label}: the longest task, ${long.frame}`);
  return { rate, added: st.added, ...long };
}

/** While the pane holds every Pod: writes at the highest rate the server accepts, each write's response → its row on screen. */
async function liveLag(t: ScaleTarget, page: Page): Promise<{ p50: number; p99: number; achieved: number }> {
  const before = (await marks(page)).modified;
  let n = 0;
  const send = directSender(t.apiserver.server, t.apiserver.creds, LIVE_WRITERS);
  const w = await writeAtRate((sent) => send('PATCH', t.podPath(n++ % LIVE_PODS), { metadata: { annotations: { 'bench/sent': String(sent) } } }, 'application/merge-patch+json'), LIVE_TARGET, LIVE_SECONDS, LIVE_WRITERS, Infinity, { clock: true });
  // Every committed write must show as one MODIFIED event (bounded wait).
  await page
    .waitForFunction((want) => (window as unknown as { __scaleWatch: WatchMarks }).__scaleWatch.modified >= want, before + w.committed.size, { timeout: 60_000, polling: 100 })
    .catch(() => undefined);
  const lag = lagOf(w, (await marks(page)).rendered);
  const p50 = pct(lag.commit, 50);
  const p99 = pct(lag.commit, 99);
  t.log(
    `watch live, the pane holding ${t.objects.toLocaleString('en-US')} Pods: ${w.committed.size} Pod patches in ${LIVE_SECONDS} s (${LIVE_WRITERS} writers, ${w.failures} failed): ${w.achieved.toFixed(0)} writes/s accepted; ` +
      `not on screen ${lag.missing}; commit→screen p50 ${p50} ms, p99 ${p99} ms, max ${pct(lag.commit, 100)} ms; send→screen p99 ${pct(lag.send, 99)} ms`,
  );
  return { p50, p99: lag.missing > 0 ? Infinity : p99, achieved: w.achieved };
}

/**
 * A watch pane whose streaming list (sendInitialEvents) covers every Pod: the rate its initial
 * ADDED events reach the screen, the longest main-thread task meanwhile, the renderer's memory
 * holding them over the same pane on an empty namespace, then the live lag.
 */
export async function scaleWatch(t: ScaleTarget): Promise<Record<string, number>> {
  const floors = new Map<Encoding, number>();
  for (const enc of ENCODINGS) {
    const floor = await streamFloor(t, '/k8s/local-admin/api/v1/pods', enc);
    if (floor.added !== t.objects) throw new Error(`the stream floor (${enc}) read ${floor.added} ADDED events, not ${t.objects}`);
    floors.set(enc, floor.rate);
    t.log(`watch: the same streaming list read by Node through the proxy, no page (${enc}): ${floor.rate.toFixed(0)} events/s`);
  }
  const mux = ENCODINGS.includes('protobuf') ? await muxFloor(t) : undefined;
  if (mux !== undefined) t.log(`watch: the same Protobuf streaming list read by Node through the proxy's mux WebSocket (the page's MuxClient), no page: ${mux.toFixed(0)} events/s`);
  // Is the stream itself the cap? The server's delivery with no proxy, JSON then Protobuf.
  const json = await directStream(t, false);
  const proto = await directStream(t, true);
  t.log(`watch: the same streaming list straight from kube-apiserver, frames counted by Node: JSON ${json.rate.toFixed(0)} events/s (${json.mib.toFixed(0)} MiB), Protobuf ${proto.rate.toFixed(0)} events/s (${proto.mib.toFixed(0)} MiB) for ${json.events.toLocaleString('en-US')} / ${proto.events.toLocaleString('en-US')} events`);
  const bare = new Map<Encoding, number>();
  for (const enc of ENCODINGS) {
    const b = await browserFloor(t, enc);
    bare.set(enc, b.rate);
    t.log(`watch: the same streaming list read in this Chromium by a bare WebSocket reader on a page's main thread (events framed, nothing decoded, kept or drawn), ${enc}: ${b.rate.toFixed(0)} events/s (${b.mib.toFixed(0)} MiB)`);
  }
  if (COMPARE && t.compareUrl) {
    // The other build first, in a renderer of its own, closed before the measured one opens.
    const other = await newPane(t, t.compareUrl, undefined, false, ENCODINGS[0]!);
    await streamOnScreen(t, other.page, other.show, ` [${COMPARE}]`, false).finally(() => other.context.close());
  }
  // The baseline of memory: the same pane streaming an empty namespace, in a renderer of its own.
  const empty = await newPane(t, t.url, 'bench-scale-empty', false, ENCODINGS[0]!);
  await empty.show();
  await empty.page.getByRole('status', { name: 'Watch state' }).filter({ hasText: 'watching' }).waitFor({ timeout: 120_000 });
  const heapEmpty = await heapAfterGc(empty.context, empty.page);
  const workerEmpty = sumHeap(await empty.workers.heapAfterGc());
  const rssEmpty = rendererRssMiB();
  await empty.context.close();

  const out: Record<string, number> = {
    'watch: the stream straight from kube-apiserver, JSON events/s / 25,000 (higher is better)': json.rate / 25_000,
    'watch: the stream straight from kube-apiserver, Protobuf events/s / JSON events/s (higher is better)': proto.rate / json.rate,
  };
  for (const [i, enc] of ENCODINGS.entries()) {
    // JSON keeps the names of the runs before the Protobuf pane; Protobuf says so in each.
    const w = enc === 'json' ? 'watch' : 'watch (Protobuf pane)';
    const { context, page, workers, show } = await newPane(t, t.url, undefined, PROFILE, enc);
    try {
      const s = await streamOnScreen(t, page, show, `${COMPARE ? ' [dist]' : ''}${enc === 'json' ? '' : ' (Protobuf pane)'}`, TRACE);
      if (PROFILE) t.log(await workers.stopProfiles());
      const rssHeld = rendererRssMiB();
      const heap = await heapAfterGc(context, page);
      const workerHeld = sumHeap(await workers.heapAfterGc());
      const rssAfterGc = rendererRssMiB().rss;
      const perThousand = (rssHeld.rss - rssEmpty.rss) / (s.added / 1000);
      t.log(`${w}: renderer RSS (page and worker) ${rssEmpty.rss.toFixed(0)} MiB on an empty pane, ${rssHeld.rss.toFixed(0)} MiB holding ${s.added.toLocaleString('en-US')} Pods (peak ${rssHeld.peak.toFixed(0)} MiB): ${(perThousand * 1024).toFixed(0)} KiB per 1,000 objects; the page's heap after GC ${(heapEmpty / 1048576).toFixed(1)} → ${(heap / 1048576).toFixed(1)} MiB; the watch worker's heap after GC ${(workerEmpty / 1048576).toFixed(1)} → ${(workerHeld / 1048576).toFixed(1)} MiB; renderer RSS after those GCs ${rssAfterGc.toFixed(0)} MiB`);
      Object.assign(out, {
        [`${w}: streaming list events/s / 25,000 (goal >= 1, higher is better)`]: s.rate / 25_000,
        [`${w}: streaming list events/s / Node through the proxy${enc === 'json' ? '' : ' in Protobuf'} (higher is better)`]: s.rate / floors.get(enc)!,
        [`${w}: streaming list events/s / the Protobuf stream straight from kube-apiserver (higher is better)`]: s.rate / proto.rate,
        [`${w}: streaming list events/s / a bare WebSocket reader in the same Chromium${enc === 'json' ? '' : ' in Protobuf'} (higher is better)`]: s.rate / bare.get(enc)!,
        ...(enc === 'protobuf' && mux ? { [`${w}: streaming list events/s / Node through the proxy's mux WebSocket in Protobuf (higher is better)`]: s.rate / mux } : {}),
        [`${w}: longest main-thread task / 50 ms (goal <= 1)`]: s.longest / 50,
        [`${w}: renderer RSS MiB per 1,000 objects held`]: perThousand,
        [`${w}: watch worker heap after GC, MiB per 1,000 objects held`]: (workerHeld - workerEmpty) / 1048576 / (s.added / 1000),
      });
      if (i < ENCODINGS.length - 1) continue;
      const live = await liveLag(t, page);
      Object.assign(out, {
        [`${w}: live commit→screen p50 / ${LIVE_GOAL_MS} ms, every Pod held, at the writes/s the server accepts`]: live.p50 / LIVE_GOAL_MS,
        [`${w}: live commit→screen p99 / ${LIVE_GOAL_MS} ms, every Pod held, at the writes/s the server accepts (goal <= 1)`]: live.p99 / LIVE_GOAL_MS,
      });
    } finally {
      await context.close();
    }
  }
  return out;
}
