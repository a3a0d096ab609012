// For tests: checks a HAR file against the HAR 1.2 JSON Schema (the har-schema package, the one
// har-validator uses), with ajv. Our `_` fields are allowed by the schema (HAR 1.2 reserves them
// for custom data).
import Ajv from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json';
import schemas from 'har-schema';

/** The schema's complaints; empty when the file is valid HAR 1.2. */
export function harProblems(har: unknown): string[] {
  // The schemas are draft-06 and use two keywords of their own (`optional`, `min`): not strict.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  for (const [name, schema] of Object.entries(schemas as Record<string, object>)) if (name !== 'har') ajv.addSchema(schema);
  const validate = ajv.compile((schemas as Record<string, object>).har!);
  return validate(har) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
