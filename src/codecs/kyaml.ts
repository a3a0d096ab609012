// KYAML, Kubernetes' YAML dialect that cannot be misread: every string value double-quoted, keys
// quoted only when a YAML reader could take them for something else (`no`, `1.0`, `2026-01-02`),
// `{}` and `[]` for every map and list, trailing commas, multi-line strings folded with `\`.
// This follows sigs.k8s.io/yaml/kyaml (v1.6.0, the one kubectl v1.37 links) rule for rule, so the
// text equals `kubectl get -o kyaml` byte for byte for the same object: kubectl prints an
// unstructured object, whose keys Go's encoding/json writes sorted, hence the sorted keys here.
// KYAML is YAML: reading it back is the YAML parser's job (text.ts), not this module's.

export interface KyamlOptions {
  /** Sort map keys as kubectl does (default true); false keeps the value's own order. */
  sortKeys?: boolean;
  /** Everything on one line, as kyaml's Compact mode. */
  compact?: boolean;
}

const INDENT = '  ';

/** A whole KYAML document: the `---` header, the value, a final newline. */
export function toKyaml(value: unknown, options: KyamlOptions = {}): string {
  return `---\n${renderNode(value, 0, options)}\n`;
}

function renderNode(v: unknown, indent: number, o: KyamlOptions): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return renderString(v, indent + 1, false, !!o.compact);
  if (Array.isArray(v)) return renderSequence(v, indent, o);
  if (typeof v === 'object') return renderMapping(v as Record<string, unknown>, indent, o);
  return renderString(String(v), indent + 1, false, !!o.compact);
}

/** Numbers as Go's encoding/json writes a float64 (exponent form below 1e-6 and from 1e21). */
function goNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // Go: strconv 'e' with the exponent's leading zero dropped: 1e-07 → 1e-7; JS already does so.
    return n.toExponential().replace(/e\+?(-?)(\d+)$/, (_m, s: string, d: string) => `e${s || '+'}${d}`);
  }
  return String(n);
}

function renderSequence(list: unknown[], indent: number, o: KyamlOptions): string {
  if (list.length === 0) return '[]';
  if (o.compact) return `[${list.map((x) => renderNode(x, 0, o)).join(', ')}]`;
  // Lists of maps and lists are "cuddled": `[{` … `}, {` … `}]`.
  const cuddle = list.every((x) => x !== null && typeof x === 'object');
  if (cuddle) return `[${list.map((x) => renderNode(x, indent, o)).join(', ')}]`;
  let out = `[\n${INDENT.repeat(indent)}`;
  for (const x of list) out += `${INDENT}${renderNode(x, indent + 1, o)},\n${INDENT.repeat(indent)}`;
  return `${out}]`;
}

function renderMapping(m: Record<string, unknown>, indent: number, o: KyamlOptions): string {
  let keys = Object.keys(m).filter((k) => m[k] !== undefined);
  if (keys.length === 0) return '{}';
  if (o.sortKeys !== false) keys = sortGo(keys);
  if (o.compact) return `{${keys.map((k) => `${renderString(k, 0, true, true)}: ${renderNode(m[k], 0, o)}`).join(', ')}}`;
  let out = '{\n';
  for (const k of keys) out += `${INDENT.repeat(indent + 1)}${renderString(k, indent + 1, true, true)}: ${renderNode(m[k], indent + 1, o)},\n`;
  return `${out}${INDENT.repeat(indent)}}`;
}

const enc = new TextEncoder();

/** Go sorts map keys by their UTF-8 bytes. */
function sortGo(keys: string[]): string[] {
  const ascii = keys.every((k) => /^[\x00-\x7f]*$/.test(k));
  if (ascii) return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...keys].sort((a, b) => {
    const x = enc.encode(a);
    const y = enc.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  });
}

const FOLD = '\\\n';

/**
 * Linear in the string's length: the pieces are collected and joined once, and whether the text
 * so far ends a line is a flag, not a look at the growing buffer's end (on a string built by
 * `+=`, `endsWith` flattens it every time: 17 s for a 200 KiB value).
 */
function renderString(val: string, indent: number, lazyQuote: boolean, compact: boolean): string {
  const multi = val.includes('\n');
  if (!multi && lazyQuote && !needsQuotes(val)) return val;
  const out: string[] = ['"'];
  if (multi && !compact) out.push(FOLD);
  let atLineStart = multi && !compact;
  const pad = INDENT.repeat(indent);
  for (const ch of val) {
    if (atLineStart) {
      // Leading whitespace of a folded line would be dropped by a YAML reader: escape it.
      out.push(pad, isSpace(ch) && ch !== '\n' ? '\\' : ' ');
    }
    const piece = escaped(ch, compact);
    out.push(piece);
    atLineStart = piece.endsWith('\n');
  }
  if (multi && !compact) {
    if (!atLineStart) out.push(FOLD);
    out.push(pad);
  }
  out.push('"');
  return out.join('');
}

const isPrint = (ch: string): boolean => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
const isSpace = (ch: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(ch);

const SPECIAL_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\0': '\\0',
  '\x1b': '\\e',
  '\x85': '\\N',
  '\xa0': '\\_',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

/** One character as it stands inside a KYAML double-quoted string. */
function escaped(ch: string, compact: boolean): string {
  if (ch === '\n') return compact ? '\\n' : `\\n${FOLD}`;
  if (ch === '\t') return compact ? '\\t' : '\t';
  if (ch === '"' || ch === '\\') return `\\${ch}`;
  if (isPrint(ch)) return ch;
  const special = SPECIAL_ESCAPES[ch];
  if (special) return special;
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// When a key needs quotes: anything a YAML 1.1 reader could take for null, a bool, a number, a
// time, or anything with characters outside letters, digits, `_` (and `-` `.` `/` inside).

export function needsQuotes(s: string): boolean {
  if (s === '') return true;
  if (isTypeAmbiguous(s)) return true;
  const runes = [...s];
  for (let i = 0; i < runes.length; i++) {
    const r = runes[i]!;
    if (/^[\p{L}\p{N}_]$/u.test(r)) continue;
    if (i > 0 && i < runes.length - 1 && (r === '-' || r === '.' || r === '/')) continue;
    return true;
  }
  return false;
}

const GO_BOOLS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);
const SEXAGESIMAL = /^[+-]?[1-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/;

/** Go's strconv.ParseInt(s, 0, 64) succeeding. */
function goParsesInt(s: string): boolean {
  const m = /^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  const body = s.replace(/^[+-]/, '');
  const neg = s.startsWith('-');
  let v: bigint;
  if (/^0[xXbBoO]/.test(body)) v = BigInt(body.toLowerCase());
  else if (/^0[0-7]+$/.test(body)) v = BigInt(`0o${body.slice(1)}`);
  else v = BigInt(body);
  return neg ? v <= 2n ** 63n : v < 2n ** 63n;
}

/** Go's strconv.ParseFloat(s, 64) succeeding (in range). */
function goParsesFloat(s: string): boolean {
  if (/^[+-]?(inf|infinity|nan)$/i.test(s)) return true;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number.isFinite(Number(s));
  if (/^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+$/.test(s)) return true;
  return false;
}

/** Go's time.Parse with yaml.v2's timestamp layouts, which accept one- or two-digit fields. */
function looksLikeTimestamp(s: string): boolean {
  if (!/^\d{4}-/.test(s)) return false;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  const [, , mo, d, sep, h, mi, se, , zone] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31) return false;
  if (sep === undefined) return true;
  if (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) return false;
  // "T"/"t" layouts need a zone; the space layout has none.
  return sep === ' ' ? zone === undefined : zone !== undefined;
}

export function isTypeAmbiguous(s: string): boolean {
  const lower = s.toLowerCase();
  if (s.length <= 5 && (lower === 'null' || lower === '~' || lower === '')) return true;
  if (GO_BOOLS.has(s)) return true;
  if (s.length <= 5 && ['true', 'y', 'yes', 'on', 'false', 'n', 'no', 'off'].includes(lower)) return true;
  const bare = s.replaceAll('_', '');
  if (goParsesInt(bare)) return true;
  if (goParsesFloat(bare)) return true;
  if (SEXAGESIMAL.test(s)) return true;
  if (s.length <= 5 && ['.inf', '-.inf', '+.inf', '.nan'].includes(lower)) return true;
  return looksLikeTimestamp(s);
}
