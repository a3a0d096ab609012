import { describe, expect, it } from 'vitest';
import { blockingLeft, type DependentRow } from './blocking';

const rs = (state: DependentRow['state'], block = true, ownerUid = 'd'): DependentRow => ({ ownerUid, state, ownerReferences: [{ uid: ownerUid, blockOwnerDeletion: block }] });

describe('blockingLeft', () => {
  it.each<[string, DependentRow[], boolean]>([
    ['a ReplicaSet that blocks the Deployment, present', [rs('present')], true],
    ['the same while it is being deleted', [rs('deleting')], true],
    ['seen deleted: nothing blocks any more', [rs('deleted')], false],
    ['orphaned: no longer a dependent', [rs('orphaned')], false],
    ['a dependent without blockOwnerDeletion does not block', [rs('present', false)], false],
    ['a dependent of another owner (a Pod of the ReplicaSet) does not block this one', [rs('present', true, 'r')], false],
    ['no dependents', [], false],
  ])('%s', (_, rows, want) => {
    expect(blockingLeft(new Map(rows.map((r, i) => [String(i), r])), 'd')).toBe(want);
  });
});
