import { describe, expect, it } from 'vitest';
import { JournalModel } from './journal';
import type { XrayMessage } from '../../../protocol/xray';

const at = (ms: number) => new Date(1_700_000_000_000 + ms).toISOString();

describe('JournalModel', () => {
  it('folds the stream into exchanges the inspector reads, rebuilding only the ones a message named', () => {
    const m = new JournalModel();
    const msgs: XrayMessage[] = [
      { type: 'hello', info: { enabled: true, url: 'http://127.0.0.1:1', allowExec: false, bodyBudget: 10, journalBudget: 100 } },
      { type: 'run', run: { id: 'r1', argv: ['kubectl', 'apply', '--server-side', '-f', 'cm.yaml'], startedAt: at(0) } },
      { type: 'request', id: 'a', run: 'r1', context: 'local', at: at(1), method: 'PATCH', path: '/api/v1/namespaces/d/configmaps/c?fieldManager=kubectl', headers: [{ name: 'Content-Type', value: 'application/apply-patch+yaml' }], watch: false },
      { type: 'requestBody', id: 'a', at: at(1), body: { text: '{"kind":"ConfigMap"}', size: 20 } },
      { type: 'response', id: 'a', at: at(5), status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: 'application/json' }] },
      { type: 'chunk', id: 'a', at: at(6), body: { text: '{"kind":', size: 8 } },
      { type: 'request', id: 'w', run: 'r1', context: 'local', at: at(7), method: 'GET', path: '/api/v1/pods?watch=true', headers: [], watch: true },
      { type: 'chunk', id: 'a', at: at(7), body: { base64: 'IkNvbmZpZ01hcCJ9', size: 12 } },
      { type: 'end', id: 'a', at: at(9), bytes: 30, chunks: 3, cut: true, closedBy: 'server' },
    ];
    msgs.slice(0, 7).forEach((x) => m.apply(x));
    const first = m.exchanges();
    expect(first.map((x) => x.id)).toEqual(['a', 'w']);
    msgs.slice(7).forEach((x) => m.apply(x));
    const [a, w] = m.exchanges();
    expect(w).toBe(first[1]);
    expect(a).not.toBe(first[0]);
    expect(a!.request).toMatchObject({ method: 'PATCH', body: '{"kind":"ConfigMap"}', headers: [['Content-Type', 'application/apply-patch+yaml']] });
    expect(new TextDecoder().decode(new Uint8Array([...a!.chunks[0]!.bytes, ...a!.chunks[1]!.bytes]))).toBe('{"kind":"ConfigMap"}');
    expect(a!.chunks[0]).toBe(first[0]!.chunks[0]);
    expect(a).toMatchObject({ cut: true, totals: { bytes: 30, chunks: 3 }, timings: { upstreamMs: 4, totalMs: 8 }, closedBy: 'server' });
    m.apply({ type: 'forget', ids: ['a', 'nope'] });
    expect(m.exchanges().map((x) => x.id)).toEqual(['w']);
    expect(m.forgotten).toBe(1);
    expect(m.journal.runs.get('r1')?.argv).toContain('--server-side');
  });
});
