// Every edit of the console's draft as a pure reducer: the view dispatches, this decides. Kept
// apart from the panels so that the rules (a pasted query string fills parameter rows, one
// Accept/Content-Type header each, typed parameters start from a valid value) have unit tests.
import { type Draft, PARAM_SPECS } from './draft';

export type DraftAction =
  | { type: 'replace'; draft: Draft }
  | { type: 'method'; method: string }
  /**
   * What the user typed or pasted in the path box. A pasted query string goes to the parameter
   * rows at once; one typed key by key stays in the box until 'pathCommit' (the box loses focus):
   * moving `?` away as it is typed glued what came next onto the path (`configmapslimit=1`).
   */
  | { type: 'pathInput'; value: string }
  | { type: 'pathCommit' }
  | { type: 'addParam'; name: string }
  | { type: 'setParam'; index: number; name: string; value: string }
  | { type: 'removeParam'; index: number }
  /** Sets (or with an empty value removes) the one header of that name, case-insensitively. */
  | { type: 'setHeader'; name: string; value: string }
  | { type: 'addHeader' }
  | { type: 'editHeader'; index: number; name: string; value: string }
  | { type: 'removeHeader'; index: number }
  | { type: 'body'; body: string };

export function draftReducer(d: Draft, a: DraftAction): Draft {
  switch (a.type) {
    case 'replace':
      return a.draft;
    case 'method':
      return { ...d, method: a.method };
    case 'pathInput': {
      // One character more than before is typing; more at once is a paste or a completion.
      const typing = a.value.length === d.path.length + 1 && a.value.startsWith(d.path.slice(0, a.value.length - 1));
      return typing ? { ...d, path: a.value } : splitQuery({ ...d, path: a.value });
    }
    case 'pathCommit':
      return splitQuery(d);
    case 'addParam': {
      const spec = PARAM_SPECS.find((s) => s.name === a.name);
      const initial = spec?.kind === 'bool' ? 'true' : spec?.kind === 'enum' ? (spec.values![0] ?? '') : '';
      return { ...d, params: [...d.params, [a.name, initial]] };
    }
    case 'setParam':
      return { ...d, params: d.params.map((p, j) => (j === a.index ? [a.name, a.value] : p)) };
    case 'removeParam':
      return { ...d, params: d.params.filter((_, j) => j !== a.index) };
    case 'setHeader': {
      const rest = d.headers.filter(([k]) => k.toLowerCase() !== a.name.toLowerCase());
      return { ...d, headers: a.value ? [...rest, [a.name, a.value]] : rest };
    }
    case 'addHeader':
      return { ...d, headers: [...d.headers, ['', '']] };
    case 'editHeader':
      return { ...d, headers: d.headers.map((h, j) => (j === a.index ? [a.name, a.value] : h)) };
    case 'removeHeader':
      return { ...d, headers: d.headers.filter((_, j) => j !== a.index) };
    case 'body':
      return { ...d, body: a.body };
  }
}

/** Moves a query string in the path box into parameter rows, after the existing ones. */
function splitQuery(d: Draft): Draft {
  const qi = d.path.indexOf('?');
  if (qi < 0) return d;
  return { ...d, path: d.path.slice(0, qi), params: [...d.params, ...new URLSearchParams(d.path.slice(qi + 1))] };
}

/** The value of a header in the draft ('' when absent), case-insensitively as HTTP names are. */
export function draftHeader(d: Draft, name: string): string {
  return d.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? '';
}
