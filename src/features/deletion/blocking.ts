// Which dependents block an owner's Foreground deletion, as the deletion view sees them.

/** What the check needs of a row of the deletion view. */
export interface DependentRow {
  ownerUid?: string;
  state: 'present' | 'deleting' | 'deleted' | 'orphaned';
  ownerReferences: { uid?: string; blockOwnerDeletion?: boolean }[];
}

/**
 * Whether a dependent that blocks the owner's deletion (its ownerReference to the owner has
 * blockOwnerDeletion) is still in the tree, not yet seen deleted or orphaned. In a Foreground
 * deletion the garbage collector removes the owner only once every such dependent is deleted.
 */
export function blockingLeft(rows: ReadonlyMap<string, DependentRow>, ownerUid: string): boolean {
  for (const r of rows.values()) {
    if (r.ownerUid !== ownerUid || r.state === 'deleted' || r.state === 'orphaned') continue;
    if (r.ownerReferences.some((o) => o.uid === ownerUid && o.blockOwnerDeletion)) return true;
  }
  return false;
}
