// The legacy `auth-provider` of a kubeconfig user with a `cmd-path` (gcp and azure, from before exec
// plugins): client-node runs that command with execSync, inside the request, so while it ran the
// whole explorer server stood still (a 4 s command made a request on another context take 3.5 s),
// and a failing command ran again on every request. Here it runs asynchronously, one run at a time
// per user, its token is kept until its expiry, and a failure is remembered for a growing while
// (5 s, doubling to 60 s). The command's JSON output is read with the kubeconfig's `token-key` and
// `expiry-key` (`{.credential.access_token}`: JSONPath of plain field names, which is what gcloud
// and az configs use).
import { execFile } from 'node:child_process';

export interface LegacyProviderConfig {
  'cmd-path'?: string;
  'cmd-args'?: string;
  'token-key'?: string;
  'expiry-key'?: string;
  'access-token'?: string;
  expiry?: string;
  'expires-on'?: string;
}

export class LegacyProviderError extends Error {
  override name = 'LegacyProviderError';
}

const DEFAULT_TIMEOUT_MS = 60_000;
const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;

/** Whether client-node would run a command for this user (gcp or azure with cmd-path). */
export function isLegacyCommandProvider(provider: { name?: string; config?: Record<string, unknown> } | undefined | null): boolean {
  return !!provider && (provider.name === 'gcp' || provider.name === 'azure') && typeof provider.config?.['cmd-path'] === 'string';
}

/** `{.a.b}` (or `.a.b`, `{.a['b']}`) applied to a JSON value; undefined when a step is missing. */
export function jsonPathValue(doc: unknown, path: string): unknown {
  const inner = path.trim().replace(/^\{(.*)\}$/, '$1').trim();
  if (!inner.startsWith('.') && !inner.startsWith('[')) throw new LegacyProviderError(`the key ${JSON.stringify(path)} is not a JSONPath of field names`);
  const steps: string[] = [];
  const re = /\.([^.[\]]+)|\[['"]([^'"]+)['"]\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(inner))) {
    steps.push(m[1] ?? m[2]!);
    at = re.lastIndex;
  }
  if (at !== inner.length) throw new LegacyProviderError(`the key ${JSON.stringify(path)} is not a JSONPath of field names`);
  let v: unknown = doc;
  for (const s of steps) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[s] : undefined;
  return v;
}

function expiryOf(config: LegacyProviderConfig): number | undefined {
  if (config.expiry) return Date.parse(config.expiry);
  if (config['expires-on']) return Number(config['expires-on']) * 1000;
  return undefined;
}

interface Entry {
  token?: string;
  expiresAt?: number;
  run?: Promise<string>;
  failure?: { message: string; retryAt: number };
  backoffMs: number;
}

export class LegacyProviders {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly opts: { timeoutMs?: number; log?: (l: string) => void } = {}) {}

  /** The bearer token of `user`: the kubeconfig's while it holds, else the command's. Throws LegacyProviderError. */
  async token(user: string, provider: string, config: LegacyProviderConfig): Promise<string> {
    let e = this.entries.get(user);
    if (!e) {
      e = { backoffMs: FIRST_BACKOFF_MS };
      // The token written in the kubeconfig, while it has not expired (client-node's rule).
      const exp = expiryOf(config);
      if (config['access-token'] && (exp === undefined || exp > Date.now())) Object.assign(e, { token: config['access-token'], expiresAt: exp });
      this.entries.set(user, e);
    }
    if (e.token && (e.expiresAt === undefined || e.expiresAt > Date.now())) return e.token;
    if (e.run) return e.run;
    if (e.failure && e.failure.retryAt > Date.now()) throw new LegacyProviderError(`${e.failure.message} (not tried again before ${new Date(e.failure.retryAt).toISOString().slice(11, 19)} UTC)`);
    const entry = e;
    const run = this.run(provider, config).then(
      ({ token, expiresAt }) => {
        Object.assign(entry, { token, expiresAt, run: undefined, failure: undefined, backoffMs: FIRST_BACKOFF_MS });
        return token;
      },
      (err: Error) => {
        entry.run = undefined;
        entry.failure = { message: err.message, retryAt: Date.now() + entry.backoffMs };
        entry.backoffMs = Math.min(entry.backoffMs * 2, MAX_BACKOFF_MS);
        this.opts.log?.(`auth-provider ${provider} of user "${user}": ${err.message}`);
        throw err;
      },
    );
    e.run = run;
    return run;
  }

  private run(provider: string, config: LegacyProviderConfig): Promise<{ token: string; expiresAt?: number }> {
    const cmd = config['cmd-path']!;
    // client-go splits cmd-args on whitespace (strings.Fields); no shell.
    const args = (config['cmd-args'] ?? '').split(/\s+/).filter(Boolean);
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const who = `the ${provider} auth-provider command \`${[cmd, ...args].join(' ')}\``;
    return new Promise((ok, fail) => {
      execFile(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean };
          const why = e.killed ? `did not finish within ${timeoutMs / 1000} s` : e.code === 'ENOENT' ? 'was not found' : `failed: ${String(stderr).trim().split('\n').pop() || e.message}`;
          return fail(new LegacyProviderError(`${who} ${why}`));
        }
        // Its output is never quoted (V8's JSON.parse error quotes the start of the text): it
        // may be the token itself, printed bare.
        let doc: unknown;
        try {
          doc = JSON.parse(String(stdout)) as unknown;
        } catch {
          return fail(new LegacyProviderError(`${who} answered no usable token: its output (${Buffer.byteLength(String(stdout))} bytes, not shown: it may be a credential) is not JSON`));
        }
        try {
          const token = jsonPathValue(doc, config['token-key'] ?? '{.access_token}');
          if (typeof token !== 'string' || !token) throw new LegacyProviderError(`no token at ${config['token-key'] ?? '{.access_token}'} in its output`);
          const expiry = config['expiry-key'] ? jsonPathValue(doc, config['expiry-key']) : undefined;
          const expiresAt = typeof expiry === 'string' ? Date.parse(expiry) : undefined;
          ok({ token, ...(expiresAt !== undefined && !Number.isNaN(expiresAt) ? { expiresAt } : {}) });
        } catch (e2) {
          fail(new LegacyProviderError(`${who} answered no usable token: ${(e2 as Error).message}`));
        }
      });
    });
  }
}
