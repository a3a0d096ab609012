// Where a recording's content is: the first collection it listed (a recording made in the Lists
// view, or a watch pane's list), so that opening one lands on its rows instead of on a Welcome page
// whose requests the recording never made (each of them "not in the recording").
import { parseResourcePath, type ResourceRef } from '../paths/paths';
import type { RecordingContents } from './har';

export interface Landing {
  context: string;
  resource: ResourceRef;
  /** The list's label selector, when it had one (the recorded rows are the selected ones). */
  labelSelector?: string;
}

/** The first whole, successful list of a collection other than namespaces (the pickers' list); undefined when the recording has none. */
export function landingOf(rec: RecordingContents): Landing | undefined {
  for (const x of rec.exchanges) {
    if (x.request.method !== 'GET' || x.watch || x.closedByReader || x.endedAt === undefined || x.response?.status !== 200) continue;
    const ref = parseResourcePath(x.request.path);
    if (!ref || ref.name || (ref.group === '' && ref.resource === 'namespaces')) continue;
    const labelSelector = new URLSearchParams(x.request.path.split('?')[1] ?? '').get('labelSelector') ?? undefined;
    return { context: x.context, resource: ref, ...(labelSelector ? { labelSelector } : {}) };
  }
  return undefined;
}
