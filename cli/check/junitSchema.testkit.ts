// For tests: validates a JUnit file against the schema CI systems read it by, Jenkins' xunit
// plugin's junit-10.xsd (testdata/, MIT, from github.com/jenkinsci/xunit-plugin at 8c515de), with
// libxml2's own validator (xmllint-wasm: xmllint compiled to WebAssembly, no native build).
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

const SCHEMA = readFileSync(new URL('./testdata/junit-10.xsd', import.meta.url), 'utf8');

/** The schema errors of `xml`, as xmllint words them; empty when valid. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [SCHEMA] });
  return r.valid ? [] : r.errors.map((e) => e.rawMessage);
}
