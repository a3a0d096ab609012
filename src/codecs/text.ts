// JSON and YAML as text: parsing that reports rather than throws, and pretty-printing.
import { parseJsonExact, toJson } from './json';
import { fromYamlAll, toYaml } from './yaml';

export { toYaml };

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON.parse, integers beyond 2^53 kept exactly (json.ts). */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: parseJsonExact(text) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Parses YAML (through the one YAML codec); several documents (`---`) come back as an array. */
export function parseYaml(text: string): Parsed {
  try {
    const values = fromYamlAll(text);
    return { ok: true, value: values.length === 1 ? values[0] : values };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

export function prettyJson(text: string): string {
  const p = parseJson(text);
  return p.ok ? toJson(p.value, 2) : text;
}
