// JSON and YAML as text: parsing that reports rather than throws, and pretty-printing.
import { parseAllDocuments, stringify } from 'yaml';

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Parses YAML; several documents (`---`) come back as an array. */
export function parseYaml(text: string): Parsed {
  try {
    const docs = parseAllDocuments(text);
    const list = Array.isArray(docs) ? docs : [docs];
    for (const d of list) if (d.errors.length) return { ok: false, error: d.errors[0]!.message };
    const values = list.map((d) => d.toJS() as unknown);
    return { ok: true, value: values.length === 1 ? values[0] : values };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}

export function prettyJson(text: string): string {
  const p = parseJson(text);
  return p.ok ? JSON.stringify(p.value, null, 2) : text;
}
