// Comparing what each wire format decodes to: deep equality with key order ignored (JSON objects
// are unordered; the formats write keys in different orders), and the paths where two differ.
// Integers beyond 2^53 come as bigint from every reader (codecs/json.ts, yaml.ts, cbor.ts), and
// Object.is compares bigints by value.
import { toJson } from '../../codecs/json';

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** A value as JSON text, bigints digit for digit; what JSON cannot write (YAML's .nan, .inf) as JavaScript prints it. */
function shown(v: unknown): string {
  try {
    return toJson(v);
  } catch {
    return String(v);
  }
}

/** Paths (at most `limit`) where `a` and `b` differ; empty when they are equal. */
export function differences(a: unknown, b: unknown, limit = 20, path = ''): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, p: string) => {
    if (out.length >= limit) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) out.push(`${p || '(root)'}: ${x.length} items vs ${y.length}`);
      for (let i = 0; i < Math.min(x.length, y.length); i++) walk(x[i], y[i], `${p}[${i}]`);
      return;
    }
    if (isObj(x) && isObj(y)) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
        if (!(k in x)) out.push(`${child(p, k)}: only in the second`);
        else if (!(k in y)) out.push(`${child(p, k)}: only in the first`);
        else walk(x[k], y[k], child(p, k));
        if (out.length >= limit) return;
      }
      return;
    }
    if (!Object.is(x, y)) out.push(`${p || '(root)'}: ${shown(x)} vs ${shown(y)}`);
  };
  walk(a, b, path);
  return out;
}

export function resourceVersionOf(v: unknown): string | undefined {
  const m = isObj(v) ? v.metadata : undefined;
  return isObj(m) && typeof m.resourceVersion === 'string' ? m.resourceVersion : undefined;
}
