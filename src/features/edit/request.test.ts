import { describe, expect, it } from 'vitest';
import { buildWriteRequest, requestLine } from './request';

const paths = { objectPath: '/api/v1/namespaces/n/configmaps/c', collectionPath: '/api/v1/namespaces/n/configmaps' };
const opts = { dryRun: true, fieldValidation: 'Strict' as const, fieldManager: 'kube-api-explorer', force: true };

describe('buildWriteRequest', () => {
  it('apply: the apply Content-Type, fieldManager, force and dryRun in the query', () => {
    const r = buildWriteRequest('apply', paths, 'kind: ConfigMap\n', opts);
    expect(requestLine(r)).toBe('PATCH /api/v1/namespaces/n/configmaps/c?dryRun=All&fieldValidation=Strict&fieldManager=kube-api-explorer&force=true');
    expect(r.headers['Content-Type']).toBe('application/apply-patch+yaml');
  });

  it('create posts to the collection; force is left out of other modes', () => {
    const r = buildWriteRequest('create', paths, '{}', opts);
    expect(requestLine(r)).toBe('POST /api/v1/namespaces/n/configmaps?dryRun=All&fieldValidation=Strict&fieldManager=kube-api-explorer');
    expect(buildWriteRequest('merge-patch', paths, '{}', opts).headers['Content-Type']).toBe('application/merge-patch+json');
  });

  it('delete sends DeleteOptions with preconditions and dryRun in the body', () => {
    const r = buildWriteRequest('delete', paths, '', opts, { propagationPolicy: 'Foreground', gracePeriodSeconds: '0', preconditionUid: 'u1', preconditionResourceVersion: '42' });
    expect(requestLine(r)).toBe('DELETE /api/v1/namespaces/n/configmaps/c');
    expect(JSON.parse(r.body!)).toEqual({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'u1', resourceVersion: '42' }, dryRun: ['All'] });
  });
});
