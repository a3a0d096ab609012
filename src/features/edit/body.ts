// Pure functions of the Edit view: text <-> object, the body each write mode sends, and what the
// server's answer means. No React, no fetch.
import { JsonError, parseJsonExact, parseJsonStrict, setOwn, toJson } from '../../codecs/json';
import { toKyaml } from '../../codecs/kyaml';
import { toYaml, fromYaml, yamlVersionDifferences, type YamlVersionDifference, YamlError } from '../../codecs/yaml';
import { parseWarningHeader } from '../../codecs/warnings';
import { toBase64 } from '../../codecs/base64';
import { isStatus, type Status } from '../../k8s/client';
import {
  deepEqual,
  differencesFromEdit,
  type EditDifference,
  type FieldHints,
  isObject,
  type JsonObject,
  withoutManagedFields,
  withServerSetMetadata,
} from '../../k8s/patch';
import type { Exchange } from './request';
import { WRITE_MODE_TABLE, type WriteMode } from './writeModes';

// KYAML is YAML (every string quoted, flow style, as `kubectl get -o kyaml` prints): the YAML
// parser reads it back, and an apply body in KYAML goes out as application/apply-patch+yaml.
export type Format = 'yaml' | 'json' | 'kyaml';
/**
 * Default field managers: one for Server-Side Apply, another for updates (PUT, patches, create).
 * With one name for both, an apply after a patch from this view conflicted with its own update
 * (the server keeps Apply and Update entries of one manager apart), as kubectl keeps `kubectl`
 * (apply) apart from `kubectl-edit`.
 */
export const APPLY_MANAGER = 'kube-api-explorer';
export const UPDATE_MANAGER = 'kube-api-explorer-edit';
/** The manager the Edit view starts with for a mode. */
export function defaultManagerFor(mode: WriteMode, touchedOnly = false): string {
  return mode === 'apply' ? `${APPLY_MANAGER}${touchedOnly ? TOUCHED_SUFFIX : ''}` : UPDATE_MANAGER;
}
/** The manager name of "apply only the fields I touched": never the main manager (see applyBody). */
export const TOUCHED_SUFFIX = '-touched';

export function serialize(obj: unknown, format: Format): string {
  if (format === 'kyaml') return toKyaml(obj);
  return format === 'yaml' ? toYaml(obj) : `${toJson(obj, 2)}\n`;
}

export interface ParsedText {
  obj?: JsonObject;
  error?: string;
  /** 1-based line of the error, when the parser knows it. */
  line?: number;
  /**
   * YAML only: plain scalars that YAML 1.1 (kubectl, or the API server reading a YAML body) reads
   * otherwise than this editor (YAML 1.2), with what each means in the body sent ({@link sentMeaning}).
   */
  yamlDifferences: YamlVersionDifference[];
}

function valueText(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return `the number ${Number.isFinite(v) ? String(v) : v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`;
  return v === null ? 'null' : `the ${typeof v} ${String(v)}`;
}

/**
 * What a scalar that YAML 1.1 and 1.2 read differently means in the body the Edit view sends. The
 * editor's text never goes out as it is: every mode's body is built from this editor's reading
 * (YAML 1.2) — JSON for create, PUT and the patches, and for apply either JSON or YAML written by
 * toYaml, which quotes every string the API server’s YAML reader would read otherwise (serverScalar, the same rule as these notes). So `enabled: yes` is stored as the
 * string "yes" and `mode: 012` goes out as the number 12, whatever the mode; the YAML 1.1 reading
 * (true, 10) is what kubectl would make of the same file. (A body typed into the Patch body editor
 * goes out verbatim: see yamlVersionDifferences' own messages, the server's reading.)
 */
export function sentMeaning(d: YamlVersionDifference): string {
  const advice =
    typeof d.yaml12 === 'string'
      ? typeof d.yaml11 === 'boolean' || d.yaml11 === null
        ? `write ${String(d.yaml11)} for that`
        : `write ${String(d.yaml11)} for that, or quote it ('${d.source}') to make the string plain to both`
      : typeof d.yaml12 === 'number' && typeof d.yaml11 === 'number'
        ? `write ${d.yaml11} for that, or quote it ('${d.source}') for a string`
        : `quote it ('${d.source}') for a string`;
  return `line ${d.line}: \`${d.source}\` is sent as ${valueText(d.yaml12)} (the body is built from this editor's YAML 1.2 reading). kubectl and other YAML 1.1 readers take it as ${valueText(d.yaml11)}: ${advice}.`;
}

export function parseText(text: string, format: Format): ParsedText {
  try {
    // Integers beyond 2^53 are kept exactly (bigint), in both formats: codecs/json.ts.
    // A key given twice is refused in both formats (js-yaml: "duplicated mapping key").
    const v: unknown = format === 'json' ? parseJsonStrict(text) : fromYaml(text);
    if (!isObject(v)) return { error: 'The document is not an object', yamlDifferences: [] };
    return { obj: v, yamlDifferences: format === 'json' ? [] : yamlVersionDifferences(text) };
  } catch (e) {
    if (e instanceof YamlError) return { error: e.message, line: e.line, yamlDifferences: [] };
    if (e instanceof JsonError && e.offset === undefined) {
      const line = unsupportedNumberLine(text);
      return { error: line !== undefined ? `line ${line}: ${e.message}` : e.message, line, yamlDifferences: [] };
    }
    const message = e instanceof Error ? e.message : String(e);
    // A text the grammar accepts failed on something else (a duplicate key): the parser's offset.
    const line = jsonErrorLine(text) ?? (e instanceof JsonError && e.offset !== undefined ? text.slice(0, e.offset).split('\n').length : undefined);
    return { error: line !== undefined ? `line ${line}: ${message}` : message, line, yamlDifferences: [] };
  }
}

// Engines do not always say where JSON.parse failed (V8 names a position only for some errors),
// so the offset of the first error is found by a small recursive-descent check of the grammar.
function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (w: string) => (text.startsWith(w, i) ? (i += w.length) : fail());
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        lit(':');
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) fail();
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (at) {
    return typeof at === 'number' ? at : -1;
  }
}

/** The line of the first number a float64 cannot hold (`1e400`), which the server refuses too. */
function unsupportedNumberLine(text: string): number | undefined {
  for (const m of text.matchAll(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g)) {
    if (!Number.isFinite(Number(m[0]))) return text.slice(0, m.index).split('\n').length;
  }
  return undefined;
}

function jsonErrorLine(text: string): number | undefined {
  const at = jsonErrorOffset(text);
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}


export function metaOf(obj: JsonObject | undefined): { name?: string; resourceVersion?: string; uid?: string } {
  const m = obj?.metadata;
  return isObject(m) ? { name: typeof m.name === 'string' ? m.name : undefined, resourceVersion: typeof m.resourceVersion === 'string' ? m.resourceVersion : undefined, uid: typeof m.uid === 'string' ? m.uid : undefined } : {};
}

const SERVER_METADATA = ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

/** The edit as a new object: the metadata the server sets on create left out. */
export function withoutServerMetadata(o: JsonObject): JsonObject {
  if (!isObject(o.metadata)) return o;
  const meta = Object.fromEntries(Object.entries(o.metadata).filter(([k]) => !SERVER_METADATA.includes(k)));
  return { ...o, metadata: meta };
}

/** The editor's view of an object: managedFields hidden unless asked for. */
export function viewOf(o: JsonObject, showManaged: boolean): JsonObject {
  return showManaged ? o : withoutManagedFields(o);
}

export interface BodyInput {
  mode: WriteMode;
  format: Format;
  /** The object as last read from the server, in the editor's view. */
  base?: JsonObject;
  /** The full loaded object (with managedFields): applyConfiguration reads ownership from it. */
  live?: JsonObject;
  edited: JsonObject;
  /** Make patches conditional on the loaded resourceVersion. */
  guard: boolean;
  fieldManager: string;
  /** Apply only the fields changed in this edit (under a manager of its own). */
  touchedOnly: boolean;
  hints: FieldHints;
}

/** The body each mode sends for an edit ('' when there is nothing to send yet), as the write-mode table builds it. */
export function generateBody(input: BodyInput): string {
  const entry = WRITE_MODE_TABLE[input.mode];
  // Patches carry only what the user changed: server-set metadata missing from the edit is not a removal.
  const edited = input.base && entry.patch ? withServerSetMetadata(input.base, input.edited) : input.edited;
  const rv = metaOf(input.base).resourceVersion;
  const value = entry.build?.({ base: input.base, live: input.live, edited, guardRv: input.guard && rv ? rv : undefined, fieldManager: input.fieldManager, hints: input.hints });
  return value === undefined ? '' : serialize(value, entry.editorFormat ? input.format : 'json');
}

export interface Outcome {
  exchange: Exchange;
  mode: WriteMode;
  dryRun: boolean;
  /** The object the request was based on (for the before/after diff). */
  before?: JsonObject;
  /** The sent body (to drop conflicting fields from, or re-send with force). */
  sentBody?: string;
  ok: boolean;
  object?: JsonObject;
  status?: Status;
  warnings: ReturnType<typeof parseWarningHeader>;
  /** Server-Side Apply field conflicts (409). */
  conflicts: NonNullable<NonNullable<Status['details']>['causes']>;
  /** The write was refused because the object changed since it was loaded. */
  stale: boolean;
  /** A JSON Patch whose resourceVersion test op failed (422): the object changed. */
  testOpFailed: boolean;
  /** A JSON Patch whose test op on another path failed (422): the value was not what the op said. */
  failedTest?: string;
  /** Not sent: a guarded apply whose object is gone would have created it. */
  wouldCreate: boolean;
  /** Not sent: an apply in create mode to a name that exists would have changed that object. */
  wouldUpdate: boolean;
  /** Where the server's result differs from the edit (patch modes with an answer object). */
  differences: EditDifference[];
}

/** What the server's answer to a write means. */
export function classifyOutcome(ex: Exchange, input: { mode: WriteMode; dryRun: boolean; before?: JsonObject; edited?: JsonObject; hints: FieldHints }): Outcome {
  const r = ex.response;
  let json: unknown;
  try {
    json = r ? parseJsonExact(r.body) : undefined;
  } catch {
    json = undefined;
  }
  const ok = !!r && r.status >= 200 && r.status < 300;
  const out: Outcome = {
    exchange: ex,
    mode: input.mode,
    dryRun: input.dryRun,
    before: input.before ? withoutManagedFields(input.before) : undefined,
    sentBody: ex.request.body,
    ok,
    warnings: parseWarningHeader(r?.headers.find(([k]) => k === 'warning')?.[1]),
    conflicts: [],
    stale: false,
    testOpFailed: false,
    wouldCreate: ex.refused === 'would-create',
    wouldUpdate: ex.refused === 'would-update',
    differences: [],
  };
  if (out.wouldCreate) {
    out.ok = false;
    out.status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'Not sent: the object is gone (GET answered 404), and an apply would create it anew: the server ignores the resourceVersion guard when an apply creates.' };
    return out;
  }
  if (out.wouldUpdate) {
    out.ok = false;
    out.status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 409, reason: 'AlreadyExists', message: 'Not sent: an object of this name exists already (GET answered 200), and an apply would change it: an apply creates or updates. Open it in the Edit view to change it, or choose another name.' };
    return out;
  }
  if (isStatus(json)) out.status = json;
  else if (isObject(json)) out.object = json;
  if (!ok && !out.status) out.status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: r?.status, message: ex.error ?? r?.body.slice(0, 500) };
  if (input.mode === 'apply' && r?.status === 409) out.conflicts = (out.status?.details?.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict');
  // A stale resourceVersion: 409 Conflict for PUT and guarded patches (an apply's field
  // conflicts are 409 too, but carry FieldManagerConflict causes); a JSON Patch whose leading
  // resourceVersion test op failed gets 422 Invalid instead.
  // The server's 422 for a failed test op does not say which one failed ("the server rejected our
  // request due to an error in our request"). A test that fails on the object as loaded is named
  // as such: the value was never what the op says. When every test holds on the loaded object,
  // the object changed after it was loaded.
  if (input.mode === 'json-patch' && r?.status === 422) {
    const tests = testOps(ex.request.body);
    if (tests.length > 0) {
      const failing = input.before ? tests.find((t) => !testHolds(input.before!, t)) : undefined;
      if (failing) out.failedTest = failing.path;
      else out.testOpFailed = true;
    }
  }
  out.stale = (r?.status === 409 && out.status?.reason === 'Conflict' && out.conflicts.length === 0) || out.testOpFailed;
  // Every write that answers with the object is checked against the edit: PUT and create too
  // (where a rounded number or a value JSON cannot hold would otherwise pass unannounced).
  if (ok && input.mode !== 'delete' && out.object && input.edited) {
    out.differences = differencesFromEdit(asStored(input.edited), out.object, input.before ? asStored(input.before) : undefined, input.hints);
  }
  return out;
}

function testOps(body: string | undefined): { path: string; value: unknown }[] {
  try {
    const ops = parseJsonExact(body ?? '');
    return Array.isArray(ops) ? ops.filter((o): o is { op: 'test'; path: string; value: unknown } => isObject(o) && o.op === 'test' && typeof o.path === 'string') : [];
  } catch {
    return [];
  }
}

/** RFC 6902 test: the value at the JSON Pointer equals the op's value. */
function testHolds(doc: JsonObject, t: { path: string; value: unknown }): boolean {
  let cur: unknown = doc;
  for (const raw of t.path.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = /^\d+$/.test(token) ? cur[Number(token)] : undefined;
    else if (isObject(cur) && Object.hasOwn(cur, token)) cur = cur[token];
    else return false;
    if (cur === undefined) return false;
  }
  return deepEqual(cur, t.value as never);
}

/**
 * The edit as the server stores it, for the result check: a Secret's `stringData` is write-only,
 * merged into `data` as base64 (stringData wins over data for the same key) and never returned.
 */
export function asStored(o: JsonObject): JsonObject {
  if (o.kind !== 'Secret' || o.apiVersion !== 'v1' || !isObject(o.stringData)) return o;
  const { stringData, ...rest } = o;
  const data: JsonObject = isObject(rest.data) ? { ...rest.data } : {};
  for (const [k, v] of Object.entries(stringData)) if (typeof v === 'string') setOwn(data, k, toBase64(new TextEncoder().encode(v)));
  return { ...rest, data };
}

/** Diff-friendly YAML of an object (always YAML, whatever the editor's format). */
export function diffText(o: JsonObject | undefined): string {
  return o ? toYaml(o) : '';
}
