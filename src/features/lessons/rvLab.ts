// The resourceVersion lab's grid as data: every cell is one read, and `predict` says what the API
// documentation ("Resource versions" in API Concepts, newest version) makes of it. The page sends
// the cell and sets the prediction beside what the server did; the e2e spec runs every cell.
import { compareResourceVersions } from '../../k8s/rv';

export const LAB_VERBS = ['get', 'list', 'list-limit', 'list-continue', 'watch'] as const;
export const LAB_RVS = ['unset', '0', 'recent', 'old', 'future'] as const;
export const LAB_MATCHES = ['unset', 'Exact', 'NotOlderThan'] as const;
export type LabVerb = (typeof LAB_VERBS)[number];
export type LabRV = (typeof LAB_RVS)[number];
export type LabMatch = (typeof LAB_MATCHES)[number];

export interface LabCell {
  verb: LabVerb;
  rv: LabRV;
  match: LabMatch;
}

export type Semantic = 'Most Recent' | 'Any' | 'Not older than' | 'Exact' | 'Continuation' | 'Start at Exact' | 'Get State and Start at Most Recent' | 'Get State and Start at Any' | 'invalid';

export interface Prediction {
  semantic: Semantic;
  /** HTTP status (for a watch: of the response; a later failure arrives as an ERROR event). */
  status: number;
  /** For a watch that is accepted and then fails: the code of its ERROR event. */
  errorEvent?: number;
  why: string;
}

/** The values the lab's setup found: recent is a list's version, old the first etcd revision, future the recent one with three more digits. */
export interface LabValues {
  recent: string;
  old: string;
  future: string;
  /** A continue token from a first page of limit=1. */
  token: string;
}

export function labValues(recent: string, token: string): LabValues {
  return { recent, old: '1', future: `${recent}000`, token };
}

export function rvValue(rv: LabRV, v: LabValues): string | undefined {
  return rv === 'unset' ? undefined : rv === '0' ? '0' : v[rv];
}

/** The request of a cell, relative to the collection path (namespace + configmaps). */
export function cellQuery(cell: LabCell, v: LabValues, object: string): { path: string; watch: boolean } {
  const p = new URLSearchParams();
  const value = rvValue(cell.rv, v);
  let suffix = '';
  if (cell.verb === 'get') suffix = `/${object}`;
  if (cell.verb === 'list-limit') p.set('limit', '2');
  if (cell.verb === 'list-continue') {
    p.set('limit', '2');
    p.set('continue', v.token);
  }
  if (cell.verb === 'watch') {
    p.set('watch', '1');
    p.set('allowWatchBookmarks', 'true');
  }
  if (value !== undefined) p.set('resourceVersion', value);
  if (cell.match !== 'unset') p.set('resourceVersionMatch', cell.match);
  const q = p.toString();
  return { path: `${suffix}${q ? `?${q}` : ''}`, watch: cell.verb === 'watch' };
}

export function allCells(): LabCell[] {
  const out: LabCell[] = [];
  for (const verb of LAB_VERBS) for (const rv of LAB_RVS) for (const match of LAB_MATCHES) out.push({ verb, rv, match });
  return out;
}

export const cellId = (c: LabCell) => `${c.verb}/${c.rv}/${c.match}`;

/**
 * What the documentation predicts. Where the server is known to differ from older pages, the
 * newest page and the server win (the notes in docs/lessons.md list them).
 */
export function predict(cell: LabCell): Prediction {
  const { verb, rv, match } = cell;
  // Parameters that do not go together fail ListOptions validation: 422 Invalid, the causes naming them.
  const invalid = (why: string): Prediction => ({ semantic: 'invalid', status: 422, why });
  if (verb === 'get') {
    // A get has no resourceVersionMatch: the server reads only resourceVersion and ignores the rest.
    if (rv === 'unset') return { semantic: 'Most Recent', status: 200, why: 'no version: the newest state, as consistent as a quorum read' };
    if (rv === '0') return { semantic: 'Any', status: 200, why: '"0": any version will do, from the cache' };
    if (rv === 'future') return { semantic: 'Not older than', status: 504, why: 'not older than a version the server has not reached: it waits, then Too large resource version' };
    return { semantic: 'Not older than', status: 200, why: 'a version is a lower bound for a get: the current object comes back, even for an old version' };
  }
  if (verb === 'list-continue') {
    if (match !== 'unset') return invalid('resourceVersionMatch is forbidden with continue');
    // "0" is let through with a token (it names no version); any other value is refused, with 400
    // BadRequest rather than a validation error.
    if (rv !== 'unset' && rv !== '0') return { semantic: 'invalid', status: 400, why: 'a continue token carries its own version: "specifying resource version is not allowed when using continue"' };
    return { semantic: 'Continuation', status: 200, why: 'the next page, at the version of the first page' };
  }
  if (verb === 'watch') {
    if (match !== 'unset') return invalid('a watch takes resourceVersionMatch only with sendInitialEvents=true');
    // Get-state watches end their synthetic events with the initial-events-end bookmark when
    // bookmarks are allowed (the lab allows them).
    if (rv === 'unset') return { semantic: 'Get State and Start at Most Recent', status: 200, why: 'synthetic ADDED for every object, then changes' };
    if (rv === '0') return { semantic: 'Get State and Start at Any', status: 200, why: 'synthetic ADDED from any recent state, then changes' };
    if (rv === 'old')
      return {
        semantic: 'Start at Exact',
        status: 200,
        errorEvent: 410,
        why: 'too old to start from: an ERROR event with 410 Gone. kube-apiserver serves watches from its watch cache, which keeps a bounded window of recent changes (sized for about 75 seconds of history): a version still inside that window is replayed from there, an older one gets 410 whether or not etcd has compacted it (on a freshly started server the window still reaches back to the start)',
      };
    if (rv === 'future') return { semantic: 'Start at Exact', status: 200, why: 'nothing to send until the store passes that version: the watch stays open and silent' };
    return { semantic: 'Start at Exact', status: 200, why: 'changes after exactly that version, no synthetic events' };
  }
  // list and list-limit
  const limited = verb === 'list-limit';
  if (match === 'unset') {
    if (rv === 'unset') return { semantic: 'Most Recent', status: 200, why: 'no version: a consistent read' };
    if (rv === '0') return { semantic: 'Any', status: 200, why: limited ? '"0": whatever the cache has; this server answers it from the cache in one piece, limit or not' : '"0": whatever the cache has' };
    if (limited) {
      // Without resourceVersionMatch, a version with limit means Exact: the legacy rule.
      if (rv === 'old') return { semantic: 'Exact', status: 410, why: 'legacy: limit + version = Exact, and that version is compacted' };
      if (rv === 'future') return { semantic: 'Exact', status: 504, why: 'legacy Exact at a version not reached yet' };
      return { semantic: 'Exact', status: 200, why: 'legacy: limit + version = Exact' };
    }
    if (rv === 'future') return { semantic: 'Not older than', status: 504, why: 'waits for a version not reached, then Too large resource version' };
    return { semantic: 'Not older than', status: 200, why: 'a version without a match is a lower bound' };
  }
  if (rv === 'unset') return invalid('resourceVersionMatch needs a resourceVersion');
  if (match === 'Exact') {
    if (rv === '0') return invalid('Exact at "0" names no version');
    if (rv === 'old') return { semantic: 'Exact', status: 410, why: 'that version is compacted: 410 Gone' };
    if (rv === 'future') return { semantic: 'Exact', status: 504, why: 'a version not reached yet' };
    return { semantic: 'Exact', status: 200, why: 'the collection exactly as it was at that version' };
  }
  if (rv === '0') return { semantic: 'Any', status: 200, why: 'not older than "0" is any version' };
  if (rv === 'future') return { semantic: 'Not older than', status: 504, why: 'waits, then Too large resource version' };
  return { semantic: 'Not older than', status: 200, why: 'at least that version: normally the current state' };
}

/**
 * How the answer's resourceVersion relates to the one asked, by the KEP-5504 rule: what a client
 * may conclude ("same", "newer", "older") and nothing more.
 */
export function relation(answer: string | undefined, asked: string | undefined): string {
  if (answer === undefined || answer === '') return 'no resourceVersion in the answer';
  if (asked === undefined) return 'none asked';
  const c = compareResourceVersions(answer, asked);
  if (c === undefined) return `"${asked}" is not comparable`;
  return c === 0 ? 'the one asked' : c > 0 ? 'newer than asked' : 'older than asked';
}
