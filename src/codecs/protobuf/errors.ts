// The errors of the schema codec: what cannot be turned into the JSON form, and what cannot be
// turned into a message.

export class SchemaDecodeError extends Error {}

export class SchemaEncodeError extends Error {}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
