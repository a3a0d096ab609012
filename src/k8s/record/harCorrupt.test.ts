// A recording file cut short or edited by hand must be refused with a RecordingFileError that says
// what cannot be read, never opened with a clock that is not a number (the replay then stood still
// without a word) nor refused with a TypeError's words ("(e ?? []).map is not a function").
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromRecordingHar, RecordingFileError, toRecordingHar, type RecordingContents } from './har';
import { ReplaySession } from './replay';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const enc = (s: string) => new TextEncoder().encode(s);

function recording(): RecordingContents {
  const base = { context: 'local', timings: { totalMs: 5 }, source: 'live' as const, response: { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']] as [string, string][], body: new Uint8Array() } };
  return {
    startedAt: T0,
    stoppedAt: T0 + 1000,
    full: false,
    marks: [{ at: T0 + 5, label: 'step 1' }],
    servers: { local: 'https://127.0.0.1:6443' },
    exchanges: [
      { ...base, id: 'a', startedAt: new Date(T0).toISOString(), request: { method: 'GET', path: '/api/v1/namespaces/d/configmaps', headers: [['Accept', 'application/json']] }, watch: false, via: 'mux', chunks: [{ at: T0 + 10, bytes: enc('{"kind":"ConfigMapList","items":[]}') }], endedAt: T0 + 20 },
      { ...base, id: 'b', startedAt: new Date(T0 + 30).toISOString(), request: { method: 'GET', path: '/api/v1/namespaces/d/configmaps?watch=1&resourceVersion=9', headers: [] }, watch: true, via: 'mux', chunks: [{ at: T0 + 40, bytes: enc('{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"10"}}}\n') }] },
      { ...base, id: 'c', startedAt: new Date(T0 + 50).toISOString(), request: { method: 'GET', path: '/api/v1/namespaces/d/configmaps/a', headers: [['Accept', 'application/vnd.kubernetes.protobuf']] }, watch: false, via: 'http', response: { ...base.response, headers: [['content-type', 'application/vnd.kubernetes.protobuf']] }, chunks: [{ at: T0 + 60, bytes: new Uint8Array([0x6b, 0x38, 0x73, 0, 1, 2]) }], endedAt: T0 + 70 },
    ],
  };
}

const file = () => JSON.parse(JSON.stringify(toRecordingHar(recording(), { enabled: false, patterns: [] }))) as Record<string, unknown>;

/** Every path to a value in a JSON document. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length ? [at] : [];
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (typeof v === 'object' && v !== null) return [...here, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return here;
}

function set(doc: unknown, path: (string | number)[], value: unknown): void {
  let o = doc as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[path.at(-1)!] = value;
}

/** Reads the file as the Welcome page does; true when it opened with a clock that runs. */
function opens(doc: unknown): boolean {
  let contents: RecordingContents;
  try {
    contents = fromRecordingHar(doc);
  } catch (e) {
    expect(e).toBeInstanceOf(RecordingFileError);
    return false;
  }
  const session = new ReplaySession(contents, 'test');
  expect(Number.isFinite(session.start) && Number.isFinite(session.end)).toBe(true);
  for (const m of contents.marks) expect(Number.isFinite(m.at)).toBe(true);
  return true;
}

describe('a corrupt recording file', () => {
  it('opens as saved', () => {
    expect(opens(file())).toBe(true);
  });

  it('names what it cannot read', () => {
    const cases: [(d: Record<string, any>) => void, RegExp][] = [
      [(d) => (d.log.entries[0].request.url = 'not a url'), /entry 0: request.url is not a URL/],
      [(d) => (d.log.entries[1] = null), /entry 1: not an object/],
      [(d) => (d.log.entries[0].request.headers = 'x'), /entry 0: request.headers is not a list of \{name, value\} strings/],
      [(d) => (d.log.entries[0].startedDateTime = 'yesterday'), /entry 0: startedDateTime is not a date \(yesterday\)/],
      [(d) => (d.log.entries[1]._frames[0].time = null), /entry 1: _frames\[0\].time is not a date/],
      [(d) => (d.log._recording.startedDateTime = null), /log._recording.startedDateTime is not a date/],
      [(d) => (d.log._recording.stoppedDateTime = 'later'), /log._recording.stoppedDateTime is not a date/],
      [(d) => (d.log.entries[2].response.content.text = '%%%'), /entry 2 cannot be read/],
      [(d) => (d.log.entries = []), /holds no exchanges/],
    ];
    for (const [spoil, message] of cases) {
      const d = file();
      spoil(d);
      expect(() => fromRecordingHar(d)).toThrow(message);
      expect(() => fromRecordingHar(d)).toThrow(RecordingFileError);
    }
  });

  // Any one value of the file replaced by any JSON value: refused with a RecordingFileError, or
  // opened with a clock that runs.
  // Counterexamples met: [1017379971, []] (_apiPath made a list: TypeError in the replay's matcher).
  fcTest.prop([fc.nat(), fc.jsonValue({ maxDepth: 2 })], { numRuns: 400, examples: [[1017379971, []]] })('any value replaced: refused by name or opened with a running clock', (pick, value) => {
    const d = file();
    const all = paths(d);
    set(d, all[pick % all.length]!, value);
    opens(d);
  });

  // The file cut short anywhere: JSON.parse refuses it, or what parses is refused or opens.
  fcTest.prop([fc.nat()], { numRuns: 200 })('cut short anywhere: never opened with a clock that stands still', (at) => {
    const text = JSON.stringify(file());
    let d: unknown;
    try {
      d = JSON.parse(text.slice(0, at % text.length));
    } catch {
      return;
    }
    opens(d);
  });
});
