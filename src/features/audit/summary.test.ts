import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../k8s/audit';
import { msBetween, summarizeAudit } from './summary';

const base = { level: 'Metadata' as const, auditID: 'id', requestURI: '/apis/apps/v1beta1/deployments', verb: 'create', user: { username: 'alice', groups: ['dev', 'system:authenticated'], extra: { b: ['2'], a: ['1'] } } };

describe('summarizeAudit', () => {
  it('reads identity, impersonation, the decision, Pod Security and deprecation, annotations merged over stages', () => {
    const events: AuditEvent[] = [
      { ...base, stage: 'RequestReceived', requestReceivedTimestamp: '2026-01-01T00:00:00.000100Z', stageTimestamp: '2026-01-01T00:00:00.000100Z' },
      {
        ...base,
        stage: 'ResponseComplete',
        impersonatedUser: { username: 'bob', groups: ['ops'] },
        requestReceivedTimestamp: '2026-01-01T00:00:00.000100Z',
        stageTimestamp: '2026-01-01T00:00:00.012600Z',
        responseStatus: { code: 201 },
        annotations: {
          'authorization.k8s.io/decision': 'allow',
          'authorization.k8s.io/reason': 'RBAC: allowed by RoleBinding "x"',
          'pod-security.kubernetes.io/enforce-policy': 'restricted:latest',
          'k8s.io/deprecated': 'true',
          'k8s.io/removed-release': '1.16',
          'example.com/other': 'kept',
        },
      },
    ];
    const s = summarizeAudit(events)!;
    expect(s.user).toEqual({ username: 'alice', uid: undefined, groups: ['dev', 'system:authenticated'], extra: [['a', ['1']], ['b', ['2']]] });
    expect(s.impersonatedUser?.username).toBe('bob');
    expect([s.decision, s.reason]).toEqual(['allow', 'RBAC: allowed by RoleBinding "x"']);
    expect(s.podSecurity).toEqual([['pod-security.kubernetes.io/enforce-policy', 'restricted:latest']]);
    expect(s.deprecated).toEqual({ removedRelease: '1.16' });
    expect(s.stages.map((x) => x.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(s.otherAnnotations).toEqual([['example.com/other', 'kept']]);
    expect(msBetween(s.event.requestReceivedTimestamp, s.event.stageTimestamp)).toBeCloseTo(12.5, 6);
  });

  it('is undefined without events', () => {
    expect(summarizeAudit([])).toBeUndefined();
  });
});
