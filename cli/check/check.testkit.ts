// For tests: runs the check as a user does (`node proxy/start.mjs check …`, what `npm start --
// check` runs) and collects its exit status, output and time.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CheckRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCheck(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; command?: string[]; cwd?: string } = {}): Promise<CheckRun> {
  const [file, ...pre] = opts.command ?? [process.execPath, 'proxy/start.mjs', 'check'];
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(file!, [...pre, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 180_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
