// `npm run decode` as a user runs it: exit status, standard output and standard error. Pure: it
// reads fixture files and standard input, no server.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (f: string) => join(root, 'src', 'codecs', 'fixtures', f);
// --disallow-code-generation-from-strings: as in the browser, whose Content-Security-Policy has no
// 'unsafe-eval', the codecs must work without `new Function` (protobufjs' generated decoders).
const decode = (args: string[], input?: Uint8Array) =>
  spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', join(root, 'tools', 'decode.ts'), ...args], { cwd: root, input, encoding: 'utf8', timeout: 60_000 });

describe('npm run decode', () => {
  it('prints a protobuf watch as one {type, object} line per event, exit 0', () => {
    const r = decode([fixture('watch-configmaps.pb')]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: unknown });
    expect(lines.map((l) => l.type)).toEqual(readFileSync(fixture('watch-configmaps.json'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type));
    expect(r.stderr).toContain('protobuf-watch');
  });

  it('decodes Protobuf with the schemas where code generation is forbidden (the browser CSP)', () => {
    const r = decode([fixture('crd.pb')]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(fixture('crd.json'), 'utf8')));
  });

  it('reads standard input with -', () => {
    const r = decode(['-'], readFileSync(fixture('deployment.cbor')));
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(fixture('deployment.json'), 'utf8')));
  });

  it('refuses a truncated body with its offset on standard error, nothing on standard output, exit 1', () => {
    const r = decode(['-'], readFileSync(fixture('deployment.pb')).subarray(0, 1000));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/offset \d+/);
  });

  it('exits 2 for a file it cannot read', () => {
    const r = decode([fixture('no-such-file.pb')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('cannot read');
  });
});
