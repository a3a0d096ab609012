import { describe, expect, it } from 'vitest';
import { fromRecordingHar, toRecordingHar, type RecordingContents } from './har';
import type { RecordedExchange } from './recorder';
import { ReplaySession } from './replay';
import { harProblems } from './har.testkit';

const enc = (s: string) => new TextEncoder().encode(s);
const T0 = Date.parse('2026-01-01T10:00:00Z');

// Credentials as they appear in a session: a Secret's values (list, watch event, applied YAML,
// the last-applied annotation), a bearer token in a header, a service account token (a JWT) and
// an exec plugin's credential (an ExecCredential's status.token, pasted into a TokenReview).
const SECRET_VALUE = 'c3VwZXItc2VjcmV0LXZhbHVl';
const STRING_DATA = 'plain-secret-in-yaml';
const BEARER = 'sha256~HeaderTokenValue123';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlLWJ5dGVz';
const EXEC_TOKEN = 'exec-plugin-credential-7f3a';
const OWN = 'hunter2-internal';

function x(partial: Partial<RecordedExchange> & Pick<RecordedExchange, 'request'>, body: string | string[], at = T0): RecordedExchange {
  const bodies = Array.isArray(body) ? body : [body];
  return {
    id: String(Math.random()),
    context: 'local',
    startedAt: new Date(at).toISOString(),
    timings: { totalMs: 5 },
    watch: false,
    source: 'live',
    via: 'http',
    response: { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']], body: new Uint8Array() },
    chunks: bodies.map((b, i) => ({ at: at + 10 * (i + 1), bytes: enc(b) })),
    endedAt: at + 100,
    ...partial,
  };
}

const secret = { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', resourceVersion: '7', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"password":"${SECRET_VALUE}"}}` } }, data: { password: SECRET_VALUE } };

function session(): RecordingContents {
  return {
    startedAt: T0,
    stoppedAt: T0 + 1000,
    full: false,
    marks: [{ at: T0 + 5, label: 'step 1' }],
    servers: { local: 'https://127.0.0.1:6443' },
    exchanges: [
      x({ request: { method: 'GET', path: '/api/v1/namespaces/d/secrets', headers: [['Authorization', `Bearer ${BEARER}`]] } }, JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 's' }, data: { password: SECRET_VALUE } }] })),
      x(
        { request: { method: 'GET', path: '/api/v1/namespaces/d/secrets?watch=1&resourceVersion=9', headers: [] }, watch: true, via: 'mux', endedAt: undefined },
        // One event split over two chunks: the frame takes the arrival of the chunk that completes it.
        [`{"type":"ADDED","object":${JSON.stringify(secret).slice(0, 30)}`, `${JSON.stringify(secret).slice(30)}}\n{"type":"DELETED","object":${JSON.stringify({ ...secret, metadata: { name: 's', resourceVersion: '8' } })}}\n`],
      ),
      x({ request: { method: 'PATCH', path: '/api/v1/namespaces/d/secrets/s?fieldManager=me&dryRun=All', headers: [['Content-Type', 'application/apply-patch+yaml']], body: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  pw: ${STRING_DATA}\n` } }, JSON.stringify(secret)),
      x({ request: { method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews', headers: [['Cookie', 'session=abc']], body: JSON.stringify({ kind: 'TokenReview', spec: { token: EXEC_TOKEN } }) } }, JSON.stringify({ kind: 'ExecCredential', status: { token: EXEC_TOKEN } })),
      x({ request: { method: 'GET', path: '/api/v1/namespaces/d/configmaps/c', headers: [] } }, JSON.stringify({ kind: 'ConfigMap', data: { kubeconfig: `token: ${JWT}`, note: `the password is ${OWN}` } })),
    ],
  };
}

describe('recording file', () => {
  it('holds none of the credentials, says what it replaced, and is valid HAR 1.2', () => {
    const har = toRecordingHar(session(), { enabled: true, patterns: ['hunter2-[a-z]+'] });
    const bytes = JSON.stringify(har);
    for (const s of [SECRET_VALUE, STRING_DATA, BEARER, JWT, EXEC_TOKEN, OWN, 'session=abc']) expect(bytes).not.toContain(s);
    const rules = new Set(har.log._recording!.redaction.redactions.map((r) => r.rule));
    expect([...rules].sort()).toEqual(['credential-field', 'credential-text', 'header', 'pattern:hunter2-[a-z]+', 'secret-data']);
    expect(har.log._recording!.redaction.redactions).toContainEqual({ entry: 0, where: 'response.content', rule: 'secret-data', field: '.items[0].data' });
    // Keys stay: which keys a Secret has is often the question.
    expect(JSON.parse(har.log.entries[0]!.response.content.text!).items[0].data).toEqual({ password: 'REDACTED' });
    expect(harProblems(har)).toEqual([]);
  });

  it('keeps everything when the user opts out, and says so', () => {
    const har = toRecordingHar(session(), { enabled: false, patterns: [] });
    const bytes = JSON.stringify(har);
    expect(bytes).toContain(SECRET_VALUE);
    expect(bytes).toContain(BEARER);
    expect(har.log._recording!.redaction.enabled).toBe(false);
    expect(har.log._recording!.redaction.redactions).toEqual([]);
  });

  it('keeps each watch event as a frame with its arrival time, type and resourceVersion, and reads back', () => {
    const har = toRecordingHar(session(), { enabled: true, patterns: [] });
    const watch = har.log.entries[1]!;
    expect(watch._frames?.map((f) => [f.time, f.type, f.resourceVersion])).toEqual([
      [new Date(T0 + 20).toISOString(), 'ADDED', '7'],
      [new Date(T0 + 20).toISOString(), 'DELETED', '8'],
    ]);
    expect(watch.response.content.text).toBeUndefined();
    const back = fromRecordingHar(JSON.parse(JSON.stringify(har)));
    expect(back.exchanges).toHaveLength(5);
    expect(back.exchanges[1]!.watch).toBe(true);
    expect(back.exchanges[1]!.chunks.map((c) => c.at)).toEqual([T0 + 20, T0 + 20]);
    expect(back.marks).toEqual([{ at: T0 + 5, label: 'step 1' }]);
    expect(new TextDecoder().decode(back.exchanges[0]!.chunks[0]!.bytes)).toContain('"kind":"SecretList"');
  });

  it('keeps a text body that is not UTF-8 (a log in Latin-1) byte for byte', () => {
    const latin1 = new Uint8Array([...enc('caf'), 0xe9, 0x0a, 0xff, 0xfe, ...enc(' end\n')]);
    const log: RecordingContents = {
      ...session(),
      exchanges: [
        {
          ...x({ request: { method: 'GET', path: '/api/v1/namespaces/d/pods/p/log', headers: [] } }, ''),
          response: { status: 200, statusText: 'OK', headers: [['content-type', 'text/plain']], body: new Uint8Array() },
          chunks: [{ at: T0 + 10, bytes: latin1 }],
        },
      ],
    };
    const back = fromRecordingHar(JSON.parse(JSON.stringify(toRecordingHar(log, { enabled: true, patterns: [] }))));
    expect([...back.exchanges[0]!.chunks[0]!.bytes]).toEqual([...latin1]);
  });

  it('replays only whole bodies: one never read to its end (no _endedDateTime) is not served as an answer', async () => {
    const whole = x({ request: { method: 'GET', path: '/apis', headers: [] } }, '{"kind":"APIGroupList"}');
    // The same request again, later: its head came, its body was never read (nothing ended it).
    const open = x({ request: { method: 'GET', path: '/apis', headers: [] } }, [], T0 + 500);
    delete open.endedAt;
    const har = toRecordingHar({ ...session(), exchanges: [whole, open] }, { enabled: true, patterns: [] });
    expect(har.log.entries[1]!._endedDateTime).toBeUndefined();
    const replay = new ReplaySession(fromRecordingHar(JSON.parse(JSON.stringify(har))), 'test');
    try {
      expect(await replay.fetch({ context: 'local', path: '/apis' }).text()).toBe('{"kind":"APIGroupList"}');
    } finally {
      replay.dispose();
    }
  });

  it('says which lesson step sent an exchange (_lesson and the comment HAR tools show), and reads it back', () => {
    const step = x({ request: { method: 'GET', path: '/api/v1/namespaces/d/configmaps', headers: [] }, lesson: { id: 'watch-basics', step: 'list' } }, '{"kind":"ConfigMapList","items":[]}');
    const har = toRecordingHar({ ...session(), exchanges: [step], marks: [{ at: T0, label: 'lesson watch-basics, step list' }] }, { enabled: true, patterns: [] });
    expect(har.log.entries[0]!._lesson).toEqual({ id: 'watch-basics', step: 'list' });
    expect(har.log.entries[0]!.comment).toBe('lesson watch-basics, step list');
    expect(harProblems(har)).toEqual([]);
    const back = fromRecordingHar(JSON.parse(JSON.stringify(har)));
    expect(back.exchanges[0]!.lesson).toEqual({ id: 'watch-basics', step: 'list' });
    expect(back.marks).toEqual([{ at: T0, label: 'lesson watch-basics, step list' }]);
  });
});
