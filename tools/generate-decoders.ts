// Compiles the protobuf descriptor into plain TypeScript decoders, one function per message type,
// that read the wire straight into the server's JSON form (src/codecs/protobuf/compiled.ts).
// Why: protobufjs' own fast decoders are built at run time with `new Function`, which the
// explorer's Content-Security-Policy forbids; code written at build time is ordinary script.
// The JSON rules are the ones json.ts applies while walking the descriptor (plan.ts): this file
// writes them out per field, so each type's decoder is straight-line code with its field keys as
// constants. Types whose JSON needs the whole schema at run time (runtime.RawExtension, the
// apiextensions JSONSchemaProps unions) are not compiled: their roots stay with the walking decoder.
// Rerun after `npm run proto:generate`: `npm run proto:compile`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { planOf, type FieldPlan } from '../src/codecs/protobuf/plan';
import { type DescriptorJson, schemaFromDescriptor } from '../src/codecs/protobuf/schema';

const here = dirname(fileURLToPath(import.meta.url));
export const COMPILED_FILE = join(here, '..', 'src', 'codecs', 'protobuf', 'compiled.ts');
export const DESCRIPTOR_FILE = join(here, '..', 'src', 'codecs', 'proto', 'k8s-descriptor.json');

/** The roots compiled: the list kinds whose bodies are large enough to matter, their items, and ObjectMeta (lazy lists). */
export const DEFAULT_ROOTS = ['k8s.io.api.core.v1.PodList', 'k8s.io.api.core.v1.Pod', 'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta'];

const UNSUPPORTED = new Set(['rawextension', 'orarray', 'orbool', 'orstringarray']);
const WIRE: Record<string, number> = { string: 2, bytes: 2, bool: 0, int32: 0, uint32: 0, int64: 0, uint64: 0, sint32: 0, sint64: 0, double: 1, float: 5, fixed32: 5, sfixed32: 5, fixed64: 1, sfixed64: 1 };
const CODES: Record<string, number> = { double: 5, float: 6, fixed32: 7, sfixed32: 8, fixed64: 9, sfixed64: 10 };

/** Every type reachable from the roots, or the reason one cannot be compiled. */
function reachable(roots: protobuf.Type[]): Map<string, protobuf.Type> {
  const seen = new Map<string, protobuf.Type>();
  const walk = (t: protobuf.Type, path: string) => {
    if (seen.has(t.fullName)) return;
    const special = planOf(t).special;
    if (special && UNSUPPORTED.has(special)) throw new Error(`${path} reaches ${t.fullName} (${special}), which is not compiled`);
    seen.set(t.fullName, t);
    for (const f of planOf(t).fields) if (f.message) walk(f.message, `${path}.${f.name}`);
  };
  for (const r of roots) walk(r, r.name);
  return seen;
}

const fnName = (t: protobuf.Type) => `d_${t.fullName.slice(1).replace(/^k8s\.io\./, '').replace(/[^\w]/g, '_')}`;

/** An expression reading one value of this field from cursor `c`, in its JSON form (`raw`: bytes kept as bytes). */
function readExpr(type: string | undefined, message: protobuf.Type | undefined, raw = false): string {
  if (message) return `${fnName(message)}(c, c.length() + c.pos)`;
  switch (type) {
    case 'string':
      return 'c.string()';
    case 'bytes':
      return raw ? 'c.bytes()' : 'toBase64(c.bytes())';
    case 'bool':
      return 'c.varint() !== 0';
    case 'int32':
    case 'uint32':
    case 'int64':
    case 'uint64':
      return 'c.varint()';
    case 'sint32':
    case 'sint64':
      return 'zigzag(c.varint())';
    default:
      if (CODES[type!] === undefined) throw new Error(`unsupported scalar ${type}`);
      return `readValue(c, ${CODES[type!]}, undefined) as number`;
  }
}

function zeroLiteral(type: string): string {
  return type === 'string' ? "''" : type === 'bool' ? 'false' : type === 'bytes' ? 'null' : '0';
}

function zeroTest(f: FieldPlan, v: string): string {
  // json.ts isZeroScalar: '', false, 0 and absent (bytes travel as their base64 text here, so '' too).
  if (f.scalar === 'string' || f.scalar === 'bytes') return `${v} === undefined || ${v} === ''`;
  if (f.scalar === 'bool') return `${v} !== true`;
  return `${v} === undefined || ${v} === 0`;
}

/** The `case` arms reading field `f` into local `v`. */
function readCases(f: FieldPlan, id: number, v: string, keyType: string | undefined, raw: boolean): string[] {
  const wt = f.message ? 2 : WIRE[f.scalar!]!;
  const key = (w: number) => (id << 3) | w;
  if (f.map) {
    const kz = keyType === 'string' ? "''" : '0';
    const vz = f.message ? `${fnName(f.message)}(c, c.pos)` : zeroLiteral(f.scalar!) === 'null' ? "''" : zeroLiteral(f.scalar!);
    return [
      `case ${key(2)}: {
        const stop = c.length() + c.pos;
        let k: unknown = ${kz};
        let x: unknown = ${vz};
        while (c.pos < stop) {
          const kk = c.varint();
          if (kk === ${(1 << 3) | WIRE[keyType!]!}) k = ${readExpr(keyType, undefined)};
          else if (kk === ${(2 << 3) | wt}) x = ${readExpr(f.scalar, f.message)};
          else skipOrFail(c, kk, 2);
        }
        setOwn((${v} ??= {}), String(k), x);
        break;
      }`,
    ];
  }
  if (f.repeated) {
    const cases = [`case ${key(wt)}: (${v} ??= []).push(${readExpr(f.scalar, f.message, raw)}); break;`];
    if (wt !== 2) cases.push(`case ${key(2)}: { const stop = c.length() + c.pos; ${v} ??= []; while (c.pos < stop) ${v}.push(${readExpr(f.scalar, undefined)}); break; }`);
    return cases;
  }
  return [`case ${key(wt)}: ${v} = ${readExpr(f.scalar, f.message, raw)}; break;`];
}

/** Statements setting `out` from local `v`, as json.ts messageToJson does for a plain message. */
function writeField(f: FieldPlan, v: string): string {
  const to = `out[${JSON.stringify(f.json)}]`;
  if (f.map) return `if (${v} !== undefined) ${to} = ${v};${f.omitempty ? '' : ` else ${to} = null;`}`;
  if (f.repeated) {
    if (f.omitempty) return `if (${v} !== undefined && ${v}.length > 0) ${to} = ${v};`;
    // A nil slice is `null` in Go's JSON; lists are the exception the server makes (`items: []`).
    return `${to} = ${v} !== undefined && ${v}.length > 0 ? ${v} : ${f.json === 'items' ? '[]' : 'null'};`;
  }
  if (f.message) {
    const lines: string[] = [];
    if (f.pointer) lines.push(f.omitempty ? `if (${v} !== undefined) {` : `if (${v} === undefined) ${to} = null; else {`);
    const value = f.pointer ? v : `${v} ?? ${fnName(f.message)}(c, c.pos)`;
    lines.push(`const m = ${value} as unknown;`);
    if (f.inline) lines.push(`if (m && typeof m === 'object') Object.assign(out, m); else`);
    if (f.omitzero) lines.push(`if (!(m === null || (typeof m === 'object' && Object.keys(m as object).length === 0)))`);
    lines.push(`${to} = m;`);
    if (f.pointer) lines.push('}');
    return `{ ${lines.join(' ')} }`;
  }
  if (f.pointer) return `if (${v} !== undefined) ${to} = ${v};${f.omitempty ? '' : ` else ${to} = null;`}`;
  if (f.omitempty) return `if (!(${zeroTest(f, v)})) ${to} = ${v};`;
  return `${to} = ${v} ?? ${zeroLiteral(f.scalar!)};`;
}

/** What a type with a JSON form of its own returns, from its fields' locals. */
function specialReturn(t: protobuf.Type, locals: Map<string, string>): string {
  const l = (n: string) => locals.get(n) ?? 'undefined';
  switch (planOf(t).special) {
    case 'time':
      return `return ${l('seconds')} === undefined ? null : rfc3339(${l('seconds')});`;
    case 'microtime':
      return `return ${l('seconds')} === undefined && ${l('nanos')} === undefined ? null : rfc3339(${l('seconds')} ?? 0, Math.floor((${l('nanos')} ?? 0) / 1000));`;
    case 'duration':
      return `return goDuration(${l('duration')} ?? 0);`;
    case 'quantity':
      return `return ${l('string')} ?? '0';`;
    case 'intorstring':
      return `return (${l('type')} ?? 0) === 1 ? (${l('strVal')} ?? '') : (${l('intVal')} ?? 0);`;
    case 'rawjson':
      return `return rawJson(${locals.has('Raw') ? l('Raw') : l('raw')});`;
    case 'slice':
      return `return ${l(planOf(t).fields[0]!.name)} ?? [];`;
  }
  throw new Error(`${t.fullName}: special ${planOf(t).special} not compiled`);
}

function tsType(f: FieldPlan, raw: boolean): string {
  const one = f.message ? 'unknown' : f.scalar === 'string' ? 'string' : f.scalar === 'bool' ? 'boolean' : f.scalar === 'bytes' ? (raw ? 'Uint8Array' : 'string') : 'number';
  if (f.map) return 'Record<string, unknown>';
  return f.repeated ? `${one}[]` : one;
}

function compile(t: protobuf.Type): string {
  const plan = planOf(t);
  const special = plan.special;
  const locals = new Map<string, string>();
  const decl: string[] = [];
  const cases: string[] = [];
  const known: number[] = [];
  plan.fields.forEach((f, i) => {
    const field = t.fields[f.name]!;
    const v = `v${i}`;
    locals.set(f.name, v);
    known.push(field.id);
    const raw = special === 'rawjson';
    decl.push(`let ${v}: ${tsType(f, raw)} | undefined;`);
    cases.push(...readCases(f, field.id, v, f.map ? (field as unknown as protobuf.MapField).keyType : undefined, raw));
  });
  const body = special ? specialReturn(t, locals) : ['const out: Record<string, unknown> = {};', ...plan.fields.map((f) => writeField(f, locals.get(f.name)!)), 'return out;'].join('\n');
  return `/** ${t.fullName.slice(1)} */
function ${fnName(t)}(c: Cursor, end: number): ${special ? 'unknown' : 'Record<string, unknown>'} {
  ${decl.join('\n')}
  while (c.pos < end) {
    const key = c.varint();
    switch (key) {
      ${cases.join('\n')}
      default:
        skipOrFail(c, key, ${JSON.stringify(known)});
    }
  }
  if (c.pos > end) c.fail(${JSON.stringify(`${t.name} runs past its end`)});
  ${body}
}`;
}

/** The source of compiled.ts for these root types of the descriptor. */
export function generateDecoders(desc: DescriptorJson, rootNames: string[] = DEFAULT_ROOTS): string {
  const schema = schemaFromDescriptor(desc);
  const roots = rootNames.map((n) => schema.root.lookupType(n));
  const types = reachable(roots);
  const header = `// Generated by tools/generate-decoders.ts from src/codecs/proto/k8s-descriptor.json (Kubernetes ${desc.kubernetes}): do not edit.
// Decoders compiled at build time, straight to the server's JSON form; see the generator for why.
/* eslint-disable */
import { toBase64 } from '../base64';
import { setOwn } from '../json';
import { goDuration, rfc3339 } from './goText';
import { Cursor, readValue } from './reader';

const utf8 = new TextDecoder();
const zigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);
function rawJson(raw: Uint8Array | undefined): unknown {
  return raw === undefined || raw.length === 0 ? null : JSON.parse(utf8.decode(raw));
}
/** A field number the type has, on a wire type it does not use, is an error (as in reader.ts); others are skipped. */
function skipOrFail(c: Cursor, key: number, known: number | number[]): void {
  const id = key >>> 3;
  if (typeof known === 'number' ? id <= known : known.includes(id)) c.fail(\`field \${id}: unexpected wire type \${key & 7}\`);
  c.skip(key & 7);
}
`;
  const fns = [...types.values()].map(compile);
  const table = `\n/** The compiled decoders by message type (full name without the leading dot): bytes of the message, to its JSON form. */
export const compiledDecoders: Record<string, (bytes: Uint8Array) => unknown> = {
${roots.map((r) => `  ${JSON.stringify(r.fullName.slice(1))}: (bytes) => { const c = new Cursor(bytes); return ${fnName(r)}(c, bytes.length); },`).join('\n')}
};
`;
  return `${header}\n${fns.join('\n\n')}\n${table}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const desc = JSON.parse(readFileSync(DESCRIPTOR_FILE, 'utf8')) as DescriptorJson;
  const roots = process.argv.slice(2);
  writeFileSync(COMPILED_FILE, generateDecoders(desc, roots.length ? roots : DEFAULT_ROOTS));
  console.log(`${COMPILED_FILE}: compiled from ${(roots.length ? roots : DEFAULT_ROOTS).join(', ')}`);
}
