// The layering rules of ARCHITECTURE.md as the lint enforces them: each forbidden import is written
// into a scratch file at its place in the tree, linted with the project's own config, and removed.
// A rule that resolved nothing (a relative-path pattern, a static-only check) would let these pass.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const written: string[] = [];

function scratch(rel: string, text: string): string {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.push(file);
  return file;
}

afterAll(() => {
  for (const f of written) rmSync(f, { force: true });
  // The scratch folders made for the probes (never a folder of the project: their names say so).
  for (const d of ['src/features/console/zzprobe', 'src/features/edit/zzprobe', 'proxy/src/zzprobe']) rmSync(join(root, d), { recursive: true, force: true });
});

const eslint = new ESLint({ cwd: root });

async function rulesBroken(files: string[]): Promise<string[]> {
  const results = await eslint.lintFiles(files);
  return results.flatMap((r) => r.messages.map((m) => m.ruleId ?? m.message));
}

interface Probe {
  name: string;
  files: Record<string, string>;
  rule: string;
}

const probes: Probe[] = [
  {
    name: "a feature's sub-folder reaching into another feature's sub-folder",
    files: { 'src/features/console/zzprobe/a.ts': "export { x } from '../../edit/zzprobe/b';\n", 'src/features/edit/zzprobe/b.ts': 'export const x = 1;\n' },
    rule: 'import-x/no-restricted-paths',
  },
  { name: 'a dynamic import() of the app layer from a feature', files: { 'src/features/console/zzprobe/c.ts': "export const s = () => import('../../../app/Shell');\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'protocol/ importing the page', files: { 'protocol/zzprobe-d.ts': "export { kubeFetch } from '../src/k8s/client';\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'protocol/ importing the proxy', files: { 'protocol/zzprobe-e.ts': "export { startExplorerServer } from '../proxy/src/server';\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'a deeper proxy file importing src/', files: { 'proxy/src/zzprobe/deep/f.ts': "export { toJson } from '../../../../src/codecs/json';\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'react in k8s/', files: { 'src/k8s/zzprobe-g.ts': "import { useState } from 'react';\nexport const h = useState;\n" }, rule: 'no-restricted-imports' },
  { name: 'node:* in codecs/, statically', files: { 'src/codecs/zzprobe-h.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n" }, rule: 'import-x/no-nodejs-modules' },
  { name: 'node:* in codecs/, dynamically', files: { 'src/codecs/zzprobe-i.ts': "export const r = () => import('node:fs');\n" }, rule: 'import-x/no-nodejs-modules' },
  { name: 'the transport importing the recorder', files: { 'src/k8s/client/zzprobe-j.ts': "export { recorder } from '../record/recorder';\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'react in lib/', files: { 'src/lib/zzprobe-n.ts': "import { useState } from 'react';\nexport const h = useState;\n" }, rule: 'no-restricted-imports' },
  { name: 'node:* in lib/', files: { 'src/lib/zzprobe-o.ts': "export const r = () => import('node:fs');\n" }, rule: 'import-x/no-nodejs-modules' },
  { name: 'lib/ importing a floor above it', files: { 'src/lib/zzprobe-p.ts': "export { toJson } from '../codecs/json';\n" }, rule: 'import-x/no-restricted-paths' },
  { name: 'production code importing a test tool', files: { 'src/k8s/zzprobe-q.ts': "import fc from 'fast-check';\nexport const g = fc.nat;\n" }, rule: '@typescript-eslint/no-restricted-imports' },
  { name: 'production code importing test support', files: { 'proxy/src/zzprobe/r.ts': "export { raw } from '../explorer.testkit';\n" }, rule: '@typescript-eslint/no-restricted-imports' },
  { name: 'codecs importing k8s/', files: { 'src/codecs/zzprobe-k.ts': "export { kubeFetch } from '../k8s/client';\n" }, rule: 'import-x/no-restricted-paths' },
  {
    name: 'an import cycle',
    files: { 'src/codecs/zzprobe-l.ts': "import { m } from './zzprobe-m';\nexport const l = () => m();\n", 'src/codecs/zzprobe-m.ts': "import { l } from './zzprobe-l';\nexport const m = () => l();\n" },
    rule: 'import-x/no-cycle',
  },
];

describe('the lint refuses each forbidden import', () => {
  it.each(probes)('$name', async (p) => {
    const files = Object.entries(p.files).map(([rel, text]) => scratch(rel, text));
    expect(await rulesBroken(files)).toContain(p.rule);
  }, 60_000);

  it('and lets through what the floors allow (a feature through its index.ts, codecs from codecs)', async () => {
    const ok = scratch('src/features/console/zzprobe/ok.ts', "export { hrefFor } from '../../../routing';\nexport * as deletion from '../../deletion';\nexport { toJson } from '../../../codecs/json';\nexport { sleep } from '../../../lib/sleep';\n");
    expect(await rulesBroken([ok])).toEqual([]);
  }, 60_000);
});
