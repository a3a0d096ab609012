import { describe, expect, it } from 'vitest';
import type { Discovery } from './discovery';
import { apiServiceStates, downBecause, groupVersionOf, refusalSentence, unavailableGroups, unavailableSentence } from './unavailable';

// What kube-apiserver 1.37.1 answered with sample-apiserver's backend stopped (e2e/aggregated.spec.ts).
const discovery: Discovery = {
  source: 'aggregated',
  groups: [
    { name: '', preferredVersion: 'v1', versions: [{ version: 'v1', freshness: 'Current', resources: [] }] },
    {
      name: 'wardle.example.com',
      preferredVersion: 'v1beta1',
      versions: [
        { version: 'v1beta1', freshness: 'Stale', resources: [] },
        { version: 'v1alpha1', freshness: 'Stale', resources: [] },
      ],
    },
  ],
};
const apiServices = apiServiceStates({
  items: [
    { metadata: { name: 'v1.' }, spec: { version: 'v1', service: null }, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } },
    {
      metadata: { name: 'v1alpha1.wardle.example.com' },
      spec: { group: 'wardle.example.com', version: 'v1alpha1', service: { name: 'api', namespace: 'wardle' } },
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'failing or missing response from https://localhost:1/apis/wardle.example.com/v1alpha1' }] },
    },
  ],
});

describe('groups that are down, and what an aggregated server refused', () => {
  it('names the group whose versions discovery marks Stale, with its APIService condition', () => {
    const down = unavailableGroups(discovery, apiServices);
    expect(down.map((u) => [u.group, u.versions])).toEqual([['wardle.example.com', ['v1beta1', 'v1alpha1']]]);
    const said = unavailableSentence(down[0]!);
    expect(said).toContain('wardle.example.com/v1beta1, wardle.example.com/v1alpha1');
    expect(said).toContain('APIService v1alpha1.wardle.example.com: Available=False (FailedDiscoveryCheck)');
    // Without the APIServices (a user who may not list them), discovery alone names it.
    expect(unavailableGroups(discovery, undefined).map((u) => u.group)).toEqual(['wardle.example.com']);
    expect(unavailableGroups({ ...discovery, groups: [discovery.groups[0]!] }, undefined)).toEqual([]);
    expect(downBecause(discovery, 'wardle.example.com', 'v1alpha1')).toContain('wardle.example.com/v1alpha1 is unavailable');
    expect(downBecause(discovery, '', 'v1')).toBeUndefined();
    expect(downBecause(discovery, 'nope.example.com', 'v1')).toBeUndefined();
  });

  it('says which group version refused which representation', () => {
    expect(groupVersionOf('/apis/wardle.example.com/v1alpha1/namespaces/x/flunders?limit=1')).toEqual({ group: 'wardle.example.com', version: 'v1alpha1' });
    expect(groupVersionOf('/api/v1/pods')).toEqual({ group: '', version: 'v1' });
    expect(groupVersionOf('/version')).toBeUndefined();
    expect(refusalSentence('/apis/wardle.example.com/v1alpha1/namespaces/x/flunders/f1', 'CBOR', 406)).toBe('wardle.example.com/v1alpha1 does not serve CBOR (406)');
    expect(refusalSentence('/api/v1/pods', 'XML', 406)).toBe('v1 does not serve XML (406)');
    expect(refusalSentence('/apis/wardle.example.com/v1alpha1/flunders', '', 503)).toContain('is unavailable (503)');
    expect(refusalSentence('/api/v1/pods', 'JSON', 404)).toBeUndefined();
  });
});
