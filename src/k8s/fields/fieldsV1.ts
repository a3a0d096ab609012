// FieldsV1, the format of `metadata.managedFields[].fieldsV1`: a trie in JSON whose keys name one
// step each. `f:<name>` is a field of a map or struct, `k:<json>` an element of an associative list
// picked by the values of its key fields, `v:<json>` an element of a set (a list of scalars) picked
// by value, `i:<n>` a list element picked by position, and `.` marks that the node itself is
// managed (not only its children). A leaf (`{}`) is a managed field too. This module turns that
// trie into the list of paths a manager owns; it is pure and never throws on odd input, because
// the API server stores whatever a client wrote into managedFields through a plain update.

/** One step of a path, as structured-merge-diff models it (PathElement). */
export type PathElement =
  | { kind: 'field'; name: string }
  | { kind: 'key'; fields: [string, unknown][] }
  | { kind: 'value'; value: unknown }
  | { kind: 'index'; index: number };

export type FieldPath = PathElement[];

export interface FieldsProblem {
  /** Where the unreadable key sits (its parent's path). */
  at: FieldPath;
  /** The key exactly as stored. */
  key: string;
  message: string;
}

export interface ParsedFields {
  /** Every path the entry owns, in the order the trie lists them (parents before children). */
  owned: FieldPath[];
  /** Keys that could not be read; their subtrees are skipped, the rest is still used. */
  problems: FieldsProblem[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads one FieldsV1 key (other than `.`); an Error describes why it could not be read. */
export function parseFieldsKey(key: string): PathElement | Error {
  const colon = key.indexOf(':');
  if (colon < 0) return new Error('no prefix (expected f:, k:, v: or i:)');
  const prefix = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  switch (prefix) {
    case 'f':
      return { kind: 'field', name: rest };
    case 'k': {
      const parsed = tryJson(rest);
      if (parsed instanceof Error) return parsed;
      if (!isPlainObject(parsed)) return new Error('k: must hold a JSON object of key fields');
      return { kind: 'key', fields: Object.entries(parsed) };
    }
    case 'v': {
      const parsed = tryJson(rest);
      return parsed instanceof Error ? parsed : { kind: 'value', value: parsed };
    }
    case 'i': {
      if (!/^(0|[1-9][0-9]*)$/.test(rest)) return new Error('i: must hold a non-negative integer');
      return { kind: 'index', index: Number(rest) };
    }
    default:
      return new Error(`unknown prefix "${prefix}:"`);
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return new Error(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Walks a fieldsV1 trie. Anything that is not an object where the format wants one becomes a problem. */
export function parseFieldsV1(fields: unknown): ParsedFields {
  const owned: FieldPath[] = [];
  const problems: FieldsProblem[] = [];
  if (fields === undefined || fields === null) return { owned, problems };
  if (!isPlainObject(fields)) {
    problems.push({ at: [], key: '', message: 'fieldsV1 is not a JSON object' });
    return { owned, problems };
  }
  const walk = (node: Record<string, unknown>, at: FieldPath) => {
    for (const [key, child] of Object.entries(node)) {
      if (key === '.') continue;
      const el = parseFieldsKey(key);
      if (el instanceof Error) {
        problems.push({ at, key, message: el.message });
        continue;
      }
      if (!isPlainObject(child)) {
        problems.push({ at, key, message: 'value is not a JSON object' });
        continue;
      }
      const path = [...at, el];
      const keys = Object.keys(child);
      // `{}` is a managed leaf; `.` says a node with children is managed itself as well.
      if (keys.length === 0 || keys.includes('.')) owned.push(path);
      walk(child, path);
    }
  };
  walk(fields, []);
  return { owned, problems };
}

/** One step printed the way the API server prints paths in SSA conflict messages. */
export function formatElement(el: PathElement): string {
  switch (el.kind) {
    case 'field':
      return `.${el.name}`;
    case 'key':
      return `[${el.fields.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    case 'value':
      return `[=${JSON.stringify(el.value)}]`;
    case 'index':
      return `[${el.index}]`;
  }
}

/** `.spec.template.spec.containers[name="nginx"].image`, as in a conflict message. */
export function formatPath(path: FieldPath): string {
  return path.map(formatElement).join('');
}
