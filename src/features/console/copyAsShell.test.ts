// "Copy as curl" and "Copy as kubectl" are inert: whatever a console link sets (method, path,
// query parameters, headers, body; the context and kubeconfig beside them), pasting the copied
// text into a real shell runs exactly one command, the curl or kubectl meant, with exactly the
// arguments meant. Fake `curl` and `kubectl` first (and alone) on PATH record their argv; any
// other command a paste started would fail "not found" on stderr, or print on stdout.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCurl, toKubectl } from './copyAs';
import { draftFromExtra, draftToRequest } from './draft';

let dir: string;
const record = () => join(dir, 'argv');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'explorer-copy-as-'));
  for (const name of ['curl', 'kubectl']) {
    // One record per run: the argv NUL-separated, then \x01 (neither can be in an argument a paste makes).
    writeFileSync(join(dir, name), `#!/bin/sh\nprintf '%s\\0' "${name}" "$@" >> "$ARGV_RECORD"\nprintf '\\001' >> "$ARGV_RECORD"\n`);
    chmodSync(join(dir, name), 0o755);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the copied text as a paste into `shell` would: the fakes' runs, and what else was printed. */
function paste(shell: string, text: string): { runs: string[][]; stdout: string; stderr: string } {
  writeFileSync(record(), '');
  let stdout: string;
  let stderr = '';
  try {
    stdout = execFileSync(`/usr/bin/${shell}`, ['-c', text], { env: { PATH: dir, ARGV_RECORD: record(), HOME: dir }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; status?: number };
    stdout = err.stdout ?? '';
    stderr = `${err.stderr ?? ''} (exit ${err.status})`;
  }
  const runs = readFileSync(record(), 'latin1').split('\x01').filter((r) => r !== '').map((r) => r.split('\0').slice(0, -1));
  return { runs, stdout, stderr };
}

// Strings rich in what a shell reads specially, and a few whole attempts at running something.
const shellish = fc.oneof(
  fc.string({ unit: fc.constantFrom(...`abcXYZ019 -_./:=;|&$()\`'"\\\n\r\t<>*?!{}[]#~%^,@+`.split('')), maxLength: 24 }),
  fc.constantFrom("GET;kubectl pwned", "x'; curl pwned; '", '$(kubectl pwned)', '`curl pwned`', 'a\nkubectl pwned', "'\nkubectl pwned\n'", 'EOF\nkubectl pwned', '=kubectl', '~root', '!!', 'a\rb'),
  fc.string({ maxLength: 16 }).map((s) => s.replace(/[\0\x01]/g, '')),
);
const method = fc.oneof(fc.constantFrom('get', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), shellish);
// Kept: a PATCH of a path with a lone `%` made toKubectl throw URIError (found by this test).
const path = fc.oneof(
  fc.constant('/api/v1/namespaces/%/secrets/%'),
  fc.constantFrom('/api/v1/namespaces/default/configmaps/x', '/apis/apps/v1/namespaces/n/deployments/d/scale', '/api/v1/pods'),
  shellish.map((s) => `/api/v1/namespaces/${s}/secrets/${s}`),
  shellish.map((s) => `/apis/${s}/v1/namespaces/n/${s}/${s}`),
  shellish,
);
// Now and then an impersonation header, which Copy as kubectl turns into a flag; `constructor` once failed (seed -235760291).
const headerName = fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/) }, fc.constantFrom('Impersonate-User', 'impersonate-group', 'Impersonate-Uid', 'constructor'));
const link = fc.record({
  m: method,
  p: path,
  query: fc.array(fc.tuple(shellish, shellish), { maxLength: 2 }),
  headers: fc.array(fc.tuple(headerName, shellish.filter((v) => v !== '')), { maxLength: 2 }),
  body: shellish,
  context: shellish,
  kubeconfig: fc.option(shellish.filter((s) => s !== ''), { nil: undefined }),
});
type Link = typeof link extends fc.Arbitrary<infer T> ? T : never;

function requestOf(l: Link) {
  const extra: Record<string, string> = { m: l.m, p: l.p, body: l.body };
  for (const [k, v] of l.query) extra[`q.${k}`] = v;
  for (const [k, v] of l.headers) extra[`h.${k}`] = v;
  return draftToRequest(draftFromExtra(extra));
}

describe('copied commands run as one command with the arguments meant', () => {
  it('curl: in sh and bash, one run of curl whose argv is the request', () => {
    fc.assert(
      fc.property(link, (l) => {
        const req = requestOf(l);
        const text = toCurl(req, { server: 'https://127.0.0.1:6443' });
        const hasBody = req.body !== undefined && req.body !== '' && req.method !== 'GET';
        const watch = /[?&]watch=(1|true)(&|$)/.test(req.path);
        const expected = ['curl', ...(req.method !== 'GET' ? ['-X', req.method] : []), ...(watch ? ['-N'] : []), `https://127.0.0.1:6443${req.path}`, ...req.headers.flatMap(([k, v]) => ['-H', `${k}: ${v}`]), ...(hasBody ? ['--data-binary', '@-'] : [])];
        for (const shell of ['sh', 'bash']) {
          const { runs, stdout, stderr } = paste(shell, text);
          expect({ shell, runs, stdout, stderr }).toEqual({ shell, runs: [expected], stdout: '', stderr: '' });
        }
      }),
      { numRuns: Number(process.env.COPY_AS_RUNS ?? 60) },
    );
  });

  it('kubectl: in sh and bash, at most one run of kubectl, with the path, body and context meant', () => {
    fc.assert(
      fc.property(link, (l) => {
        const req = requestOf(l);
        const { command } = toKubectl(req, { context: l.context, ...(l.kubeconfig !== undefined ? { kubeconfig: l.kubeconfig } : {}) });
        const as: Record<string, string> = { 'impersonate-user': '--as', 'impersonate-group': '--as-group', 'impersonate-uid': '--as-uid' };
        const flags = req.headers.filter(([k]) => Object.hasOwn(as, k.toLowerCase())).flatMap(([k, v]) => [as[k.toLowerCase()]!, v]);
        const ctx = [...(l.kubeconfig !== undefined ? ['--kubeconfig', l.kubeconfig] : []), ...(l.context ? ['--context', l.context] : []), ...flags];
        const raw = { GET: 'get', POST: 'create', PUT: 'replace', DELETE: 'delete' }[req.method];
        for (const shell of ['sh', 'bash']) {
          const { runs, stdout, stderr } = paste(shell, command);
          expect({ shell, stdout, stderr }).toEqual({ shell, stdout: '', stderr: '' });
          if (raw) expect(runs).toEqual([['kubectl', raw, '--raw', req.path, ...ctx, ...(req.body && raw !== 'get' && raw !== 'delete' ? ['-f', '-'] : [])]]);
          else if (req.method !== 'PATCH') expect(runs).toEqual([]);
          else {
            expect(runs.length).toBeLessThanOrEqual(1);
            const argv = runs[0];
            if (argv) {
              expect(argv[0]).toBe('kubectl');
              expect(argv.slice(argv.length - ctx.length - (argv.includes('-f') ? 2 : 0)).slice(0, ctx.length)).toEqual(ctx);
              if (argv.includes('-p')) expect(argv[argv.indexOf('-p') + 1]).toBe(req.body ?? '');
            }
          }
        }
      }),
      { numRuns: Number(process.env.COPY_AS_RUNS ?? 60) },
    );
  });
});
