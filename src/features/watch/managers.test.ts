import { describe, expect, it } from 'vitest';
import { changedManagers } from './managers';

const obj = (mf: object[]) => ({ metadata: { managedFields: mf } });

describe('changedManagers', () => {
  it('names managers whose entries were added, changed or removed, and leaves the others out', () => {
    const before = obj([
      { manager: 'kubectl', operation: 'Update', time: 't1', fieldsV1: { 'f:data': {} } },
      { manager: 'ctrl', operation: 'Apply', time: 't1', fieldsV1: { 'f:a': {} } },
      { manager: 'old', operation: 'Update', time: 't0', fieldsV1: {} },
    ]);
    const after = obj([
      { manager: 'kubectl', operation: 'Update', time: 't1', fieldsV1: { 'f:data': {} } },
      { manager: 'ctrl', operation: 'Apply', time: 't2', fieldsV1: { 'f:a': {}, 'f:b': {} } },
      { manager: 'status', operation: 'Update', subresource: 'status', time: 't2', fieldsV1: {} },
    ]);
    expect(changedManagers(before, after)).toEqual([
      { manager: 'ctrl', operation: 'Apply', subresource: undefined, change: 'updated' },
      { manager: 'status', operation: 'Update', subresource: 'status', change: 'added' },
      { manager: 'old', operation: 'Update', subresource: undefined, change: 'removed' },
    ]);
  });
});
