// For tests: checks a HAR file against the HAR 1.2 JSON Schema (the har-schema package, the one
// har-validator uses), with ajv. Our `_` fields are allowed by the schema (HAR 1.2 reserves them
// for custom data).
import { createRequire } from 'node:module';
import Ajv from 'ajv';

// Through require: JSON modules need an import attribute in Node's loader (Playwright's), not in Vite's.
const require = createRequire(import.meta.url);
const draft6 = require('ajv/dist/refs/json-schema-draft-06.json') as object;
const schemas = require('har-schema') as Record<string, object>;

/** The schema's complaints; empty when the file is valid HAR 1.2. */
export function harProblems(har: unknown): string[] {
  // The schemas are draft-06 and use two keywords of their own (`optional`, `min`): not strict.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  for (const [name, schema] of Object.entries(schemas)) if (name !== 'har') ajv.addSchema(schema);
  const validate = ajv.compile(schemas.har!);
  return validate(har) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
