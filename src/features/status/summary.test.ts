import { describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../k8s/client';
import type { ExplorerStatus } from '../../../protocol/status';
import { summarize } from './summary';

const healthy: HealthSnapshot = { server: { reachable: true }, token: { state: 'ok' }, contexts: {} };
const now = Date.parse('2026-11-23T12:00:00Z');
const status = (over: Partial<ExplorerStatus> = {}): ExplorerStatus => ({
  server: { startedAt: '2026-11-23T11:00:00Z', pid: 1 },
  upstreams: { open: 0, total: 0, max: 256, muxPaused: 0 },
  contexts: {},
  controlPlane: null,
  ...over,
});

describe('summarize', () => {
  it('is "connected" when the server answers, the token holds and the cluster answered last', () => {
    const s = summarize({ health: { ...healthy, contexts: { c: { lastOkAt: now, latencyMs: 3, unreachable: false } } }, status: status(), events: [], context: 'c', now });
    expect(s.level).toBe('ok');
    expect(s.short).toBe('connected');
    expect(s.lines.find((l) => l.label.startsWith('Cluster c'))?.text).toMatch(/reachable, 3 ms/);
  });

  it('says the cluster of this view is down when its last request failed after its last answer', () => {
    const health: HealthSnapshot = { ...healthy, contexts: { c: { lastOkAt: now - 5000, lastError: { message: '503 connection refused', at: now - 1000 }, unreachable: true } } };
    const s = summarize({ health, status: status(), events: [], context: 'c', now });
    expect(s.level).toBe('down');
    expect(s.short).toBe('Cluster c (this view): down');
  });

  it('says the cluster of this view is not answering when /readyz got no answer in time (a frozen kube-apiserver)', () => {
    const health: HealthSnapshot = { ...healthy, contexts: { c: { lastOkAt: now - 20_000, latencyMs: 3, unreachable: false } } };
    const s = summarize({ health, status: status(), events: [], context: 'c', readyz: { at: now - 1000, status: 0, ready: false, failed: [], silent: true }, now });
    expect(s.level).toBe('down');
    expect(s.short).toBe('not answering');
    expect(s.lines.find((l) => l.label.startsWith('Cluster c'))?.text).toMatch(/^not answering: \/readyz got no answer within 5 s/);
  });

  it("lists another context's failure without calling this page degraded", () => {
    const health: HealthSnapshot = { ...healthy, contexts: { c: { lastOkAt: now, latencyMs: 3, unreachable: false }, other: { lastError: { message: 'cannot reach the API server of context "other"', at: now - 60_000 }, unreachable: true } } };
    const s = summarize({ health, status: status(), events: [], context: 'c', now });
    expect(s.level).toBe('ok');
    expect(s.short).toBe('connected');
    expect(s.lines.find((l) => l.label === 'Cluster other')).toMatchObject({ level: 'warn', text: expect.stringMatching(/^unreachable since/) });
  });

  it('tells a restarted explorer server by its start time, and a picked-up token', () => {
    const s = summarize({ health: { ...healthy, token: { state: 'refreshed', at: now } }, status: status({ server: { startedAt: '2026-11-23T11:59:00Z', pid: 2 } }), firstStartedAt: '2026-11-23T11:00:00Z', events: [], now });
    expect(s.level).toBe('ok');
    expect(s.lines.find((l) => l.label === 'Explorer server')?.text).toMatch(/^restarted at /);
    expect(s.lines.find((l) => l.label === 'Token')?.text).toMatch(/picked up its new token/);
  });

  it('asks for a reload when the token is refused for good', () => {
    const s = summarize({ health: { ...healthy, token: { state: 'rejected', at: now } }, events: [], now });
    expect(s.level).toBe('down');
    expect(s.lines.find((l) => l.label === 'Token')?.text).toMatch(/reload the page/);
  });

  it('shows a restarting kube-apiserver of the local control plane as degraded', () => {
    const cp = { server: 'https://127.0.0.1:1', lastSeq: 1, events: [], components: [{ name: 'kube-apiserver', state: 'restarting' as const, restarts: 1, since: '2026-11-23T11:59:00Z', log: 'x' }] };
    const s = summarize({ health: healthy, status: status({ controlPlane: cp }), events: [], now });
    expect(s.level).toBe('warn');
    expect(s.short).toBe('kube-apiserver: degraded');
  });

  it('says "not ready" and names the failed checks when the cluster answers but /readyz fails', () => {
    const health: HealthSnapshot = { ...healthy, contexts: { c: { lastOkAt: now, latencyMs: 3, unreachable: false } } };
    const s = summarize({ health, status: status(), events: [], context: 'c', now, readyz: { at: now, status: 500, ready: false, failed: ['etcd'] } });
    expect(s.level).toBe('down');
    expect(s.short).toBe('not ready: etcd failed');
    expect(s.lines.find((l) => l.label.startsWith('Cluster c'))?.text).toMatch(/answers but is not ready \(\/readyz at .*: etcd failed\)/);
    expect(summarize({ health, status: status(), events: [], context: 'c', now, readyz: { at: now, status: 200, ready: true, failed: [] } }).short).toBe('connected');
  });

  it('shows the credential plugin the view waits for, with its stderr and a Cancel', () => {
    const credentials = [{ user: 'oidc', contexts: ['c'], command: '/usr/local/bin/kubectl-oidc_login get-token', state: 'running' as const, startedAt: '2026-11-23T11:59:50Z', timeoutAt: '2026-11-23T12:02:50Z', stderr: 'Please visit https://login.example/device' }];
    const s = summarize({ health: healthy, status: status({ credentials }), events: [], context: 'c', now });
    expect(s.short).toBe('waiting for kubectl-oidc_login');
    const line = s.lines.find((l) => l.label === 'Credentials of oidc')!;
    expect(line.text).toMatch(/^waiting for `\/usr\/local\/bin\/kubectl-oidc_login get-token` since /);
    expect(line.detail).toBe('Please visit https://login.example/device');
    expect(line.action).toEqual({ kind: 'cancel', context: 'c' });
  });

  it('shows a failed plugin of this view as down, with a way to try again', () => {
    const credentials = [{ user: 'u', contexts: ['c'], command: 'aws eks get-token', state: 'failed' as const, stderr: '', failure: { at: '2026-11-23T11:59:50Z', message: 'the exec plugin `aws eks get-token` failed (exit code 255)', retryAt: '2026-11-23T11:59:55Z' } }];
    const s = summarize({ health: healthy, status: status({ credentials }), events: [], context: 'c', now });
    expect(s.level).toBe('down');
    expect(s.lines.find((l) => l.label === 'Credentials of u')?.action).toEqual({ kind: 'retry', context: 'c' });
  });
});
