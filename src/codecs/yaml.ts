// The one YAML codec of the explorer, on js-yaml. Every YAML the explorer writes or reads goes
// through here.
//
// Why care: kube-apiserver reads YAML bodies (apply-patch+yaml, application/yaml) with
// sigs.k8s.io/yaml, which follows YAML 1.1: a plain `yes`, `on`, `n` or `1_000` is a boolean or
// a number there, while a YAML 1.2 library reads it as a string. A ConfigMap sent with a plain
// `a: yes` gets 500 "expected string"; a custom resource that preserves unknown fields stores `true`.
// So the writer quotes every string that *either* reader would take for something else: js-yaml's
// own (YAML 1.2) resolvers, and the server's, ported from go.yaml.in/yaml/v2 (serverScalar below:
// `0X1F`, `0B101`, `08_` or `1_e3` are numbers there, which js-yaml's YAML 1.1 tags do not know).
// The reader says, line by line, where the two read a plain scalar differently, by the same port.
//
// Numbers: an integer beyond 2^53 is read as a bigint and written back digit for digit (see
// json.ts for why). `.inf`, `-.inf` and `.nan` are refused at their line: JSON cannot hold them,
// and a body built from them would carry `null` (kubectl refuses them: "unsupported value: +Inf").
//
// Merge keys (`<<: *defaults`): merged, as sigs.k8s.io/yaml (go-yaml) does for kubectl and the
// API server; keys written in the mapping itself win over merged ones.
import { CORE_SCHEMA, DEFAULT_SCALAR_STYLE_RULES, defineScalarTag, dump, DUMP_SCHEMA, EVENT_ID, getScalarValue, intCoreTag, loadAll, mergeTag, NOT_RESOLVED, parseEvents, SCALAR_STYLE, type ScalarLayout, type ScalarTagDefinition, YAMLException } from 'js-yaml';
import { nonFinitePath } from './json';

const INT_TAG = 'tag:yaml.org,2002:int';

/** An int tag that keeps integers beyond 2^53 exactly, as bigint; otherwise `base` unchanged. */
function exactInts(base: ScalarTagDefinition): ScalarTagDefinition {
  return defineScalarTag(INT_TAG, {
    ...base,
    resolve: (source, isExplicit, tagName) => {
      const v = base.resolve(source, isExplicit, tagName);
      if (v === NOT_RESOLVED || typeof v !== 'number' || Number.isSafeInteger(v)) return v;
      try {
        // The core schema's forms (decimal with a sign, 0o, 0x) are BigInt's own syntax.
        const s = source.replace(/_/g, '');
        return s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s.replace(/^\+/, ''));
      } catch {
        return v;
      }
    },
    identify: (d: unknown) => typeof d === 'bigint' || base.identify(d),
    represent: (d: unknown) => (typeof d === 'bigint' ? d.toString() : base.represent(d)),
  });
}

const LOAD_SCHEMA = CORE_SCHEMA.withTags(exactInts(intCoreTag), mergeTag);
const WRITE_SCHEMA = DUMP_SCHEMA.withTags(exactInts(DUMP_SCHEMA.tags.find((t): t is ScalarTagDefinition => t.tagName === INT_TAG && t.nodeKind === 'scalar')!));

/** YAML for `value`: strings any YAML version would read otherwise are quoted; no line folding. */
export function toYaml(value: unknown): string {
  // lineWidth -1: long strings stay on one line (folding would be correct, but hard to read and diff).
  // noRefs: an object used twice is written twice, never as an anchor/alias the user did not write.
  // NEL, U+2028 and U+2029 come out escaped (`\N`, `\L`, `\P`), which YAML 1.1 reads as the
  // characters, not as line breaks.
  if (!hasLongString(value)) return dump(value, { lineWidth: -1, noRefs: true, schema: WRITE_SCHEMA, scalarStyleRules: WRITE_RULES });
  const long: string[] = [];
  const mark = `kae-long-${Math.random().toString(36).slice(2)}-`;
  const out = dump(withoutLongStrings(value, long, mark), { lineWidth: -1, noRefs: true, schema: WRITE_SCHEMA, scalarStyleRules: WRITE_RULES });
  return long.length === 0 ? out : out.replace(new RegExp(`${mark}(\\d+)`, 'g'), (_, i: string) => doubleQuoted(long[Number(i)]!));
}

/**
 * Strings from this length on are written double-quoted by us, not by js-yaml: before its style
 * rules run, js-yaml tests every string against the plain, single-quoted and block grammars (large
 * regular expressions, about a third of a second per MiB), where a double-quoted scalar is always
 * valid. A 1.4 MiB string in an object is a custom resource anyone may create (issue 43).
 */
const LONG_STRING = 64 * 1024;

/** Whether `v` holds a string value of LONG_STRING or more (iterative: the depth is the object's author's). */
function hasLongString(v: unknown): boolean {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string' && x.length >= LONG_STRING) return true;
    // One push per value, not push(...values): a spread passes every element as an argument, and
    // a list of 150,000 items overflows the stack.
    if (typeof x === 'object' && x !== null) for (const y of Object.values(x)) stack.push(y);
  }
  return false;
}

/** `v` with every string value of LONG_STRING or more replaced by `mark` and its index in `long` (keys stay). */
function withoutLongStrings(v: unknown, long: string[], mark: string): unknown {
  if (typeof v === 'string') {
    if (v.length < LONG_STRING) return v;
    long.push(v);
    return `${mark}${long.length - 1}`;
  }
  if (Array.isArray(v)) return v.map((x) => withoutLongStrings(x, long, mark));
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutLongStrings(x, long, mark)]));
}

/**
 * A YAML double-quoted scalar: JSON's string escapes are YAML's too; what JSON leaves bare and YAML
 * may not hold bare (DEL, C1 controls, U+FFFE/U+FFFF) or YAML 1.1 reads as a line break (NEL,
 * U+2028, U+2029), and the byte order mark, are written as \u escapes.
 */
function doubleQuoted(s: string): string {
  return JSON.stringify(s).replace(/[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A string the API server would read as something else (a number, boolean, null, or a merge key)
 * may not be written plain: the rule takes the plain style away, and js-yaml's own rules then quote it.
 */
function quoteWhatTheServerReadsOtherwise(layout: ScalarLayout): void {
  const { node } = layout;
  if (node.tagged || node.tag !== STR_TAG || typeof node.value !== 'string') return;
  if (readsAsString(node.value)) return;
  layout.allowedStylesMask &= ~(1 << SCALAR_STYLE.PLAIN);
}
const STR_TAG = 'tag:yaml.org,2002:str';
const WRITE_RULES = [quoteWhatTheServerReadsOtherwise, ...Object.values(DEFAULT_SCALAR_STYLE_RULES)];

/** The server reads this text, written plain, as the same string (go-yaml v2; `<<` is a merge key as a key). */
function readsAsString(s: string): boolean {
  return s !== '<<' && serverScalar(s) === s;
}

/** A parse error with the 1-based line and column it points at. */
export class YamlError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'YamlError';
  }
}

function toYamlError(e: unknown): YamlError {
  if (e instanceof YAMLException) {
    const line = e.mark ? e.mark.line + 1 : undefined;
    const column = e.mark ? e.mark.column + 1 : undefined;
    return new YamlError(line !== undefined ? `line ${line}, column ${column}: ${e.reason}` : e.reason, line, column);
  }
  return new YamlError(e instanceof Error ? e.message : String(e));
}

/** Every document of a YAML stream (`---` separated), in order. Empty (null) documents are dropped, as kubectl drops them. */
export function fromYamlAll(text: string): unknown[] {
  let docs: unknown[];
  try {
    docs = loadAll(text, { schema: LOAD_SCHEMA }).filter((d) => d !== undefined && d !== null);
  } catch (e) {
    throw toYamlError(e);
  }
  if (docs.some((d) => nonFinitePath(d) !== undefined)) throw nonFiniteError(text);
  return docs;
}

const NON_FINITE = /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/;

/** The error for `.inf`/`.nan`, at the line of the first one. */
function nonFiniteError(text: string): YamlError {
  let events: ReturnType<typeof parseEvents> = [];
  try {
    events = parseEvents(text, {});
  } catch {
    /* it loaded, so it parses */
  }
  for (const ev of events) {
    if (ev.type !== EVENT_ID.SCALAR || ev.style !== SCALAR_STYLE.PLAIN) continue;
    const source = getScalarValue(text, ev);
    if (!NON_FINITE.test(source)) continue;
    const { line, column } = lineAndColumn(text, ev.valueStart);
    const what = /nan/i.test(source) ? 'NaN' : source.startsWith('-') ? '-Inf' : '+Inf';
    return new YamlError(`line ${line}, column ${column}: \`${source}\` is ${what}, which JSON cannot hold: the API server refuses it (unsupported value: ${what}), and it is not sent. Quote it ('${source}') to send the string.`, line, column);
  }
  return new YamlError('unsupported value: the document holds Infinity or NaN, which JSON cannot hold');
}

/**
 * One YAML document as a value (YAML 1.2 core schema: only `true`/`false` are booleans, `~`/`null`
 * null). Several documents come back as an array of them; an empty text is null.
 * Throws YamlError with the line of the problem.
 */
export function fromYaml(text: string): unknown {
  const docs = fromYamlAll(text);
  if (docs.length === 0) return null;
  return docs.length === 1 ? docs[0] : docs;
}

/** A plain scalar that YAML 1.1 (the API server) and YAML 1.2 (this parser) read differently. */
export interface YamlVersionDifference {
  /** 1-based. */
  line: number;
  column: number;
  /** The scalar as written. */
  source: string;
  /** What this parser reads (YAML 1.2 core schema). */
  yaml12: unknown;
  /** What kube-apiserver reads (YAML 1.1). */
  yaml11: unknown;
  message: string;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}

function describe(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (v === null) return 'null';
  if (typeof v === 'number') return `the number ${Number.isFinite(v) ? String(v) : v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`;
  return `the ${typeof v} ${String(v)}`;
}

function same(a: unknown, b: unknown): boolean {
  // Object.is, so that NaN is NaN; but -0 and 0 are one number in every body sent (JSON writes
  // -0 as 0): `-0` is no difference between the two readings.
  return Object.is(a, b) || (a === 0 && b === 0);
}

// Resolves a plain scalar the way js-yaml's own composer resolves untagged plain scalars.
type Resolver = { resolveImplicitScalarTag(source: string): { value: unknown } };
const resolve12 = (source: string) => (CORE_SCHEMA as unknown as Resolver).resolveImplicitScalarTag(source).value;

// The words go.yaml.in/yaml/v2 (resolve.go, used by sigs.k8s.io/yaml in kube-apiserver) looks up
// before anything else.
const SERVER_WORDS = new Map<string, unknown>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((w) => [w, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((w) => [w, false] as const),
  ...['', '~', 'null', 'Null', 'NULL'].map((w) => [w, null] as const),
  ...['.nan', '.NaN', '.NAN'].map((w) => [w, Number.NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((w) => [w, Number.POSITIVE_INFINITY] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((w) => [w, Number.NEGATIVE_INFINITY] as const),
]);
// Go's strconv.ParseInt(s, 0, 64) syntax (underscores removed first): sign, then 0x/0o/0b
// prefixes in either case, a leading 0 for octal.
const GO_INT = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|(0[0-7]*)|([1-9][0-9]*))$/;
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
// strconv.ParseFloat on a text that starts with '.': decimal only, underscores between digits
// (strconv's underscoreOK), in the fraction and the exponent.
const GO_DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** A Go float64 parse: out of range is an error (ErrRange), and the scalar stays a string. */
function goFloat(text: string, source: string): unknown {
  const v = Number(text.replace(/_/g, ''));
  return Number.isFinite(v) ? v : source;
}

/**
 * What kube-apiserver reads for a plain scalar: a port of resolve() in go.yaml.in/yaml/v2 for
 * untagged scalars, as sigs.k8s.io/yaml decodes them into interface{} before turning them into
 * JSON. Timestamps (`2026-11-23`) stay strings there (decode.go keeps them as text for
 * interface{} targets), and base-60 numbers (`12:30`) are not supported, so both are strings.
 * Integers beyond 2^53 come back as bigint (exact, as this module reads them).
 */
export function serverScalar(source: string): unknown {
  if (SERVER_WORDS.has(source)) return SERVER_WORDS.get(source);
  const c = source[0]!;
  // resolve.go's '.' hint: strconv.ParseFloat of the text as it is (no underscore removal, no regexp).
  if (c === '.') return GO_DOT_FLOAT.test(source) ? goFloat(source, source) : source;
  if (c !== '+' && c !== '-' && !(c >= '0' && c <= '9')) return source;
  const plain = source.replace(/_/g, '');
  const m = GO_INT.exec(plain);
  if (m) {
    const [, sign, hex, oct, bin, octLeading, dec] = m;
    const digits = hex !== undefined ? `0x${hex}` : oct !== undefined ? `0o${oct}` : bin !== undefined ? `0b${bin}` : octLeading !== undefined ? (octLeading.length > 1 ? `0o${octLeading.slice(1)}` : '0') : dec!;
    const big = sign === '-' ? -BigInt(digits) : BigInt(digits);
    // ParseInt (int64, sign allowed), then ParseUint (uint64, no sign); beyond both, the float rule.
    if ((big >= INT64_MIN && big <= INT64_MAX) || (sign === '' && big <= UINT64_MAX)) return Number.isSafeInteger(Number(big)) ? Number(big) : big;
  }
  if (GO_YAML_FLOAT.test(plain)) return goFloat(plain, source);
  return source;
}

/**
 * Plain (unquoted, untagged) scalars, keys included, that the API server would read as something
 * else than this editor does, e.g. `enabled: yes` (here the string "yes", there the boolean true),
 * `port: 1_000`, `time: 12:30` (a base-60 number in YAML 1.1). Quote them to mean the string.
 * A text that does not parse gives no differences (the parse error says where it fails).
 */
export function yamlVersionDifferences(text: string): YamlVersionDifference[] {
  let events: ReturnType<typeof parseEvents>;
  try {
    events = parseEvents(text, {});
  } catch {
    return [];
  }
  const out: YamlVersionDifference[] = [];
  for (const ev of events) {
    if (ev.type !== EVENT_ID.SCALAR || ev.style !== SCALAR_STYLE.PLAIN || ev.tagStart !== ev.tagEnd) continue;
    const source = getScalarValue(text, ev);
    const yaml12 = resolve12(source);
    const yaml11 = serverScalar(source);
    if (same(yaml12, yaml11)) continue;
    const { line, column } = lineAndColumn(text, ev.valueStart);
    out.push({
      line,
      column,
      source,
      yaml12,
      yaml11,
      message:
        typeof yaml12 === 'string'
          ? `line ${line}: \`${source}\` is ${describe(yaml12)} here, but the API server reads YAML 1.1 and sees ${describe(yaml11)}; quote it ('${source}') to send the string.`
          : `line ${line}: \`${source}\` is ${describe(yaml12)} here, but the API server reads YAML 1.1 and sees ${describe(yaml11)}; write it so that both agree (quoted for a string).`,
    });
  }
  return out;
}

/**
 * The 1-based line of the field at `path` (keys and list indexes from the root) in a YAML or JSON
 * text (JSON is read as YAML flow syntax): the line of its key, or of the element. For errors found
 * on the parsed value (a protobuf field out of range) to point at the text the user wrote.
 */
export function lineOfPath(text: string, path: readonly (string | number)[]): number | undefined {
  let events: ReturnType<typeof parseEvents>;
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined;
  }
  type Frame = { kind: 'doc' | 'map' | 'seq'; path: (string | number)[]; index: number; key?: string; keyAt?: number };
  const stack: Frame[] = [];
  const advance = (f: Frame | undefined) => {
    if (f?.kind === 'map') f.key = undefined;
    else if (f?.kind === 'seq') f.index++;
  };
  const same = (p: (string | number)[]) => p.length === path.length && p.every((t, i) => String(t) === String(path[i]));
  for (const ev of events) {
    if (ev.type === EVENT_ID.DOCUMENT) {
      stack.push({ kind: 'doc', path: [], index: 0 });
      continue;
    }
    if (ev.type === EVENT_ID.POP) {
      stack.pop();
      advance(stack[stack.length - 1]);
      continue;
    }
    const top = stack[stack.length - 1];
    const start = ev.type === EVENT_ID.SCALAR ? ev.valueStart : 'start' in ev ? (ev.start as number) : 0;
    const isContainer = ev.type === EVENT_ID.MAPPING || ev.type === EVENT_ID.SEQUENCE;
    if (top?.kind === 'map' && top.key === undefined) {
      // A key. (A complex key, a mapping or sequence, never names a JSON field.)
      top.key = ev.type === EVENT_ID.SCALAR ? getScalarValue(text, ev) : '\u0000';
      top.keyAt = start;
      if (isContainer) stack.push({ kind: ev.type === EVENT_ID.MAPPING ? 'map' : 'seq', path: [], index: 0 });
      continue;
    }
    const here = top ? (top.kind === 'doc' ? [] : [...top.path, top.kind === 'seq' ? top.index : top.key!]) : [];
    if (same(here)) return lineAndColumn(text, top?.kind === 'map' ? top.keyAt! : start).line;
    if (isContainer) stack.push({ kind: ev.type === EVENT_ID.MAPPING ? 'map' : 'seq', path: here, index: 0 });
    else advance(top);
  }
  return undefined;
}
