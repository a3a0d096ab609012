import { afterEach, describe, expect, it } from 'vitest';
import type { RecordingContents } from './har';
import type { RecordedExchange } from './recorder';
import { normalizedPath, ReplaySession } from './replay';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function x(path: string, at: number, chunks: [number, string][], more: Partial<RecordedExchange> = {}): RecordedExchange {
  return {
    id: path + at,
    context: 'c',
    startedAt: new Date(at).toISOString(),
    request: { method: 'GET', path, headers: [] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body: new Uint8Array() },
    timings: {},
    watch: /watch=1/.test(path),
    source: 'har',
    via: 'mux',
    chunks: chunks.map(([t, s]) => ({ at: t, bytes: enc(s) })),
    // A read's body ended with its last chunk (a watch's end is given where it matters).
    ...(/watch=1/.test(path) ? {} : { endedAt: chunks.at(-1)?.[0] ?? at }),
    ...more,
  };
}

const rec: RecordingContents = {
  startedAt: T0,
  stoppedAt: T0 + 10_000,
  full: false,
  marks: [],
  servers: {},
  exchanges: [
    x('/api/v1/configmaps/a', T0 + 100, [[T0 + 110, '{"v":1}']]),
    x('/api/v1/configmaps/a', T0 + 5000, [[T0 + 5010, '{"v":2}']]),
    x('/api/v1/configmaps?watch=1&resourceVersion=5&timeoutSeconds=300', T0 + 200, [
      [T0 + 1000, '{"type":"ADDED"}\n'],
      [T0 + 3000, '{"type":"DELETED"}\n'],
    ], { closedByReader: true, endedAt: T0 + 9000 }),
  ],
};

let session: ReplaySession | undefined;
afterEach(() => session?.dispose());

describe('ReplaySession', () => {
  it('answers a read with the exchange recorded last before the clock', async () => {
    session = new ReplaySession(rec, 'test');
    expect(await session.fetch({ context: 'c', path: '/api/v1/configmaps/a' }).text()).toBe('{"v":2}');
    session.seek(T0 + 1000);
    expect(await session.fetch({ context: 'c', path: '/api/v1/configmaps/a' }).text()).toBe('{"v":1}');
  });

  it('never serves a body the page stopped reading (or one still arriving when the recording stopped) as if whole: the status is the server\'s, reading the body fails and says why', async () => {
    const cut: RecordingContents = {
      ...rec,
      exchanges: [
        x('/api/v1/namespaces?limit=1', T0 + 100, [[T0 + 110, '{"kind":"Names']], { closedByReader: true }),
        x('/api/v1/pods?limit=1', T0 + 100, [[T0 + 110, '{"kind":"Po']], { endedAt: undefined }),
      ],
    };
    session = new ReplaySession(cut, 'test');
    for (const path of ['/api/v1/namespaces?limit=1', '/api/v1/pods?limit=1']) {
      const res = session.fetch({ context: 'c', path });
      expect(res.status).toBe(200);
      await expect(res.json()).rejects.toThrow(/the recording holds only the start of this answer/);
    }
  });

  it('refuses writes and says what the recording does not hold, as the proxy would', async () => {
    session = new ReplaySession(rec, 'test');
    const write = session.fetch({ context: 'c', method: 'POST', path: '/api/v1/configmaps' });
    expect(write.status).toBe(405);
    expect(write.headers.get('x-explorer-proxy-error')).toBe('1');
    const missing = session.fetch({ context: 'c', path: '/api/v1/secrets' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('not in the recording');
  });

  it('releases watch frames as the clock reaches them; the query order and timeoutSeconds do not matter', async () => {
    session = new ReplaySession(rec, 'test');
    session.seek(T0 + 2000);
    const s = session.open({ context: 'c', path: '/api/v1/configmaps?resourceVersion=5&watch=1&timeoutSeconds=17' });
    expect(s.status).toBe(200);
    const it = s.body[Symbol.asyncIterator]();
    expect(dec((await it.next()).value as Uint8Array)).toBe('{"type":"ADDED"}\n');
    let second: string | undefined;
    const next = it.next().then((r) => (second = dec(r.value as Uint8Array)));
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBeUndefined();
    session.seek(T0 + 3000);
    await next;
    expect(second).toBe('{"type":"DELETED"}\n');
    // The page closed this stream in the recording: it stays open after its last frame.
    let ended = false;
    const end = it.next().then(() => (ended = true));
    session.seek(T0 + 9500);
    await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(false);
    s.close();
    await end;
  });

  it('moving the clock back starts a new epoch (the views mount again)', () => {
    session = new ReplaySession(rec, 'test');
    expect(session.snapshot().position).toBe(T0 + 10_000);
    session.seek(T0 + 50);
    expect(session.snapshot().epoch).toBe(1);
    session.seek(T0 + 60);
    expect(session.snapshot().epoch).toBe(1);
  });

  it('normalizes paths', () => {
    expect(normalizedPath('/a?watch=1&b=2&timeoutSeconds=5')).toBe(normalizedPath('/a?b=2&watch=1'));
  });
  it('answers a read in the encoding it asks for when the recording holds the same path in several (the Encodings view)', async () => {
    // Recorded as the Encodings view reads one object: JSON, YAML, Protobuf, CBOR, one after the other.
    const asked: [string, string, string][] = [
      ['application/json', 'application/json', '{"kind":"ConfigMap"}'],
      ['application/yaml', 'application/yaml', 'kind: ConfigMap\n'],
      ['application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf', 'k8s\u0000pb'],
      ['application/cbor', 'application/cbor', '\u00d9\u00d9\u00f7cbor'],
    ];
    const encodings: RecordingContents = {
      ...rec,
      exchanges: asked.map(([accept, type, body], i) =>
        x('/api/v1/namespaces/n/configmaps/a', T0 + 100 * (i + 1), [[T0 + 100 * (i + 1) + 10, body]], {
          request: { method: 'GET', path: '/api/v1/namespaces/n/configmaps/a', headers: [['Accept', accept]] },
          response: { status: 200, statusText: 'OK', headers: [['Content-Type', type]], body: new Uint8Array() },
          endedAt: T0 + 100 * (i + 1) + 20,
        }),
      ),
    };
    session = new ReplaySession(encodings, 'test');
    for (const [accept, type, body] of asked) {
      const res = session.fetch({ context: 'c', path: '/api/v1/namespaces/n/configmaps/a', accept });
      expect(res.headers.get('content-type')).toBe(type);
      expect(await res.text()).toBe(body);
      const stream = session.open({ context: 'c', path: '/api/v1/namespaces/n/configmaps/a', accept });
      expect(stream.headers['content-type']).toBe(type);
    }
    // A request whose Accept the recording never sent still gets an answer (the last one, as before).
    expect(session.fetch({ context: 'c', path: '/api/v1/namespaces/n/configmaps/a', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }).headers.get('content-type')).toBe('application/cbor');
  });
});
