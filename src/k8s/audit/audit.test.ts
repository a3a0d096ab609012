// The audit event readers on annotations as kube-apiserver writes them (formats from
// admission/plugin/webhook/mutating/dispatcher.go, policy/validating/dispatcher.go and
// endpoints/request/webhook_duration.go); admission.server.test.ts checks them on real events.
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../protocol/audit';
import { admissionRecord, replayAdmission, unreplayable, VALIDATION_FAILURE } from './admission';
import { parseGoDuration } from './goDuration';
import { latencyBreakdown } from './latency';

const event = (over: Partial<AuditEvent>): AuditEvent => ({ level: 'RequestResponse', auditID: 'a', stage: 'ResponseComplete', requestURI: '/', verb: 'create', user: {}, ...over });

describe('parseGoDuration', () => {
  it.each([
    ['0s', 0],
    ['1.5ms', 1.5],
    ['702.112634ms', 702.112634],
    ['250µs', 0.25],
    ['250us', 0.25],
    ['12ns', 0.000012],
    ['1.000000001s', 1000.000001],
    ['2m3.5s', 123_500],
    ['1h0m0s', 3_600_000],
    ['-1.5s', -1500],
  ])('%s is %d ms', (text, ms) => expect(parseGoDuration(text)).toBeCloseTo(ms, 9));
  it.each(['', 'ms', '1', '1.5', '1x', '1s2', 'abc'])('%j is not a duration', (text) => expect(parseGoDuration(text)).toBeUndefined());
});

describe('latencyBreakdown', () => {
  it('orders the parts as a request meets them, finds the largest, keeps an unknown part by name', () => {
    const b = latencyBreakdown(
      event({
        annotations: {
          'apiserver.latency.k8s.io/total': '812.5ms',
          'apiserver.latency.k8s.io/etcd': '3.2ms',
          'apiserver.latency.k8s.io/mutating-webhook': '702.1ms',
          'apiserver.latency.k8s.io/serialize-response-object': '150µs',
          'apiserver.latency.k8s.io/some-new-part': '1ms',
          'authorization.k8s.io/decision': 'allow',
        },
      }),
    );
    expect(b.total).toEqual({ ms: 812.5, text: '812.5ms' });
    expect(b.parts.map((p) => p.key)).toEqual(['mutating-webhook', 'etcd', 'serialize-response-object', 'some-new-part']);
    expect(b.largest?.key).toBe('mutating-webhook');
    expect(b.absent).toBeUndefined();
  });
  it('says why there is no breakdown: under the threshold, or not the ResponseComplete stage', () => {
    const quick = latencyBreakdown(event({ requestReceivedTimestamp: '2026-11-29T01:00:00.100000Z', stageTimestamp: '2026-11-29T01:00:00.112500Z' }));
    expect(quick.elapsedMs).toBeCloseTo(12.5, 6);
    expect(quick.absent).toMatch(/longer than 500 ms.*took 13 ms/);
    expect(latencyBreakdown(event({ stage: 'ResponseStarted' })).absent).toMatch(/ResponseComplete/);
  });
});

describe('admissionRecord and replayAdmission', () => {
  const mutation = (webhook: string, mutated: boolean) => JSON.stringify({ configuration: 'cfg', webhook, mutated });
  const patch = (webhook: string, p: unknown[]) => JSON.stringify({ configuration: 'cfg', webhook, patch: p, patchType: 'JSONPatch' });
  const annotations = {
    'mutation.webhook.admission.k8s.io/round_0_index_1': mutation('b', true),
    'patch.webhook.admission.k8s.io/round_0_index_1': patch('b', [{ op: 'replace', path: '/data/x', value: '2' }]),
    'mutation.webhook.admission.k8s.io/round_0_index_0': mutation('a', true),
    'patch.webhook.admission.k8s.io/round_0_index_0': patch('a', [{ op: 'add', path: '/data/x', value: '1' }]),
    'mutation.webhook.admission.k8s.io/round_1_index_0': mutation('a', false),
    'failed-open.validating.webhook.admission.k8s.io/round_0_index_0': 'v.example.com',
    [VALIDATION_FAILURE]: JSON.stringify([{ message: 'no', policy: 'p', binding: 'pb', expressionIndex: 0, validationActions: ['Audit'] }]),
  };

  it('reads each webhook in the order it ran, with its patch; failed-open validating webhooks; Audit policy failures', () => {
    const r = admissionRecord(event({ annotations }));
    expect(r.mutating.map((c) => [c.round, c.index, c.webhook, c.mutated, c.patch?.length])).toEqual([
      [0, 0, 'a', true, 1],
      [0, 1, 'b', true, 1],
      [1, 0, 'a', false, undefined],
    ]);
    expect(r.validatingFailedOpen).toEqual([{ round: 0, index: 0, webhook: 'v.example.com' }]);
    expect(r.policyFailures).toEqual([{ policy: 'p', binding: 'pb', message: 'no', expressionIndex: 0, validationActions: ['Audit'] }]);
  });

  it('replays the patches in order and splits the rest into server-set and unattributed changes', () => {
    const requestObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { k: 'v' } }, data: { y: '0' } };
    const responseObject = { ...requestObject, metadata: { name: 'c', namespace: 'n', uid: 'u', resourceVersion: '5', labels: { k: 'v', 'stamped-by': 'policy' } }, data: { y: '0', x: '2' } };
    const replay = replayAdmission(event({ annotations, requestObject, responseObject }))!;
    expect(replay.patches.map((p) => [p.call.webhook, p.after, p.error])).toEqual([
      ['a', { ...requestObject, data: { y: '0', x: '1' } }, undefined],
      ['b', { ...requestObject, data: { y: '0', x: '2' } }, undefined],
    ]);
    expect(replay.unattributed).toEqual([{ op: 'add', path: '/metadata/labels/stamped-by', value: 'policy' }]);
    expect(replay.serverSet.map((op) => op.path).sort()).toEqual(['/metadata/namespace', '/metadata/resourceVersion', '/metadata/uid']);
  });

  it('says when a patch does not apply to the recorded object, and when there is nothing to replay', () => {
    const bad = { 'patch.webhook.admission.k8s.io/round_0_index_0': patch('a', [{ op: 'replace', path: '/data/missing', value: '1' }]) };
    const replay = replayAdmission(event({ annotations: bad, requestObject: { metadata: {} }, responseObject: { metadata: {} } }))!;
    expect(replay.patches[0]!.error).toBeTruthy();
    expect(replayAdmission(event({ level: 'Metadata', annotations: bad }))).toBeUndefined();
    expect(unreplayable(event({ level: 'Metadata' }))).toMatch(/level Metadata/);
    expect(unreplayable(event({ requestObject: { kind: 'ConfigMap' }, responseObject: { kind: 'Status', code: 422 } }))).toMatch(/a Status/);
    // A patch's requestObject is the patch, a delete's the DeleteOptions: not the object.
    expect(unreplayable(event({ verb: 'patch', requestObject: { metadata: { labels: { a: 'b' } } }, responseObject: { kind: 'ConfigMap', metadata: {} } }))).toMatch(/patch/);
    expect(replayAdmission(event({ verb: 'delete', requestObject: { kind: 'DeleteOptions' }, responseObject: { kind: 'ConfigMap' } }))).toBeUndefined();
  });
});
