// An X-ray recording (written by the proxy's journal, protocol/xrayJournal.ts) is a recording the
// page reads and replays like its own: one format for both sides (issue 45).
import { describe, expect, it } from 'vitest';
import type { XrayMessage } from '../../../protocol/xray';
import { XrayJournal } from '../../../protocol/xrayJournal';
import { fromRecordingHar } from './har';

const at = (s: number) => new Date(Date.parse('2026-11-29T01:00:00Z') + s * 1000).toISOString();
const json = [{ name: 'Content-Type', value: 'application/json' }];

describe('an X-ray recording read by the page', () => {
  it('keeps each exchange, the apply body as sent, and a watch frame by frame with its times', () => {
    const j = new XrayJournal();
    const ev = (type: string, rv: string) => `${JSON.stringify({ type, object: { kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: rv } } })}\n`;
    const messages: XrayMessage[] = [
      { type: 'run', run: { id: 'r1', argv: ['kubectl', 'apply', '--server-side'], startedAt: at(0) } },
      { type: 'request', id: 'x1', run: 'r1', context: 'local', at: at(1), method: 'PATCH', path: '/api/v1/namespaces/d/configmaps/a?fieldManager=kubectl', headers: [{ name: 'Content-Type', value: 'application/apply-patch+yaml' }], watch: false },
      { type: 'requestBody', id: 'x1', at: at(1), body: { text: '{"data":{"k":"v"}}', size: 18 } },
      { type: 'response', id: 'x1', at: at(2), status: 200, statusText: 'OK', headers: json },
      { type: 'chunk', id: 'x1', at: at(2), body: { text: '{"kind":"ConfigMap"}', size: 20 } },
      { type: 'end', id: 'x1', at: at(2), bytes: 20, chunks: 1, closedBy: 'server' },
      { type: 'request', id: 'x2', run: 'r1', context: 'local', at: at(3), method: 'GET', path: '/api/v1/namespaces/d/configmaps?watch=1', headers: [], watch: true },
      { type: 'response', id: 'x2', at: at(3), status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: 'application/json;stream=watch' }] },
      // One event split across two chunks, then a second one: frames follow lines, not chunks.
      { type: 'chunk', id: 'x2', at: at(4), body: { text: ev('ADDED', '5').slice(0, 10), size: 10 } },
      { type: 'chunk', id: 'x2', at: at(5), body: { text: ev('ADDED', '5').slice(10) + ev('MODIFIED', '6'), size: 1 } },
      { type: 'end', id: 'x2', at: at(6), bytes: 1, chunks: 2, closedBy: 'client' },
      { type: 'runEnd', id: 'r1', endedAt: at(7), exitCode: 0 },
    ];
    for (const m of messages) j.apply(m);
    const file = JSON.parse(JSON.stringify(j.toHar({ local: 'https://127.0.0.1:6443' }, 'r1'))) as unknown;
    const rec = fromRecordingHar(file);
    expect(rec.meta?.runs?.[0]).toMatchObject({ id: 'r1', exitCode: 0 });
    const [apply, watch] = rec.exchanges;
    expect(apply).toMatchObject({ via: 'xray', request: { method: 'PATCH', body: '{"data":{"k":"v"}}' }, response: { status: 200 } });
    expect(new TextDecoder().decode(apply!.chunks[0]!.bytes)).toBe('{"kind":"ConfigMap"}');
    expect(watch!.watch).toBe(true);
    expect(watch!.closedByReader).toBe(true);
    expect(watch!.chunks.map((c) => [new Date(c.at).toISOString(), JSON.parse(new TextDecoder().decode(c.bytes)).type])).toEqual([
      [at(5), 'ADDED'],
      [at(5), 'MODIFIED'],
    ]);
    // The page's own replay of the page's journal: the same messages rebuild the same journal.
    const again = new XrayJournal();
    for (const m of j.messages()) again.apply(m);
    expect(JSON.stringify(again.toHar({ local: 'https://127.0.0.1:6443' }))).toBe(JSON.stringify(j.toHar({ local: 'https://127.0.0.1:6443' })));
  });
});
