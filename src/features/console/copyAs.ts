// "Copy as" for a console request: curl against the API server, and the kubectl command that sends
// the same request (`kubectl get|create|replace|delete --raw`, which send a path as-is, or the
// matching `kubectl patch` / `kubectl apply --server-side`, since --raw has no PATCH).
import { baseType } from '../../codecs';
import { parseResourcePath } from '../../k8s/paths';
import { headerValue, queryOf, type ExchangeRequest } from '../../k8s/client';

/**
 * POSIX shell single-quoting: nothing inside '...' is special except the quote itself. A word
 * that starts with `=` is quoted too: zsh expands `=name` to a command's path.
 */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Text for a `#` comment line: control characters (a newline above all, which would end the
 * comment and start a command) spelled as escapes. A link sets the method and path.
 */
function commentText(s: string): string {
  return s.replace(/[\x00-\x1f\x7f\u0085\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function heredoc(body: string): { marker: string; text: string } {
  let marker = 'EOF';
  for (let i = 0; body.split('\n').includes(marker); i++) marker = `EOF${i}`;
  return { marker, text: `${body.endsWith('\n') ? body : `${body}\n`}${marker}` };
}

export interface CurlOptions {
  /** The API server URL (from the kubeconfig context). Credentials are left for the user to add. */
  server: string;
}

export function toCurl(req: ExchangeRequest, opts: CurlOptions): string {
  const parts = ['curl'];
  // Quoted like every other part: a console link sets the method (`m=GET;id` would run `id`).
  if (req.method !== 'GET') parts.push('-X', shellQuote(req.method));
  const q = queryOf(req.path);
  // A watch never ends: -N prints each event as it arrives instead of buffering.
  if (q.watch === '1' || q.watch === 'true') parts.push('-N');
  parts.push(shellQuote(`${opts.server.replace(/\/$/, '')}${req.path}`));
  for (const [k, v] of req.headers) parts.push('-H', shellQuote(`${k}: ${v}`));
  const hasBody = req.body !== undefined && req.body !== '' && req.method !== 'GET';
  if (hasBody) parts.push('--data-binary', '@-');
  // A Protobuf or CBOR body the console encoded: the exact bytes, as POSIX printf octal escapes.
  if (hasBody && req.bodyBytes) return `printf '${Array.from(req.bodyBytes, (b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}' | ${parts.join(' ')}`;
  let cmd = parts.join(' ');
  if (hasBody) {
    const h = heredoc(req.body!);
    cmd += ` <<'${h.marker}'\n${h.text}`;
  }
  return cmd;
}

const PATCH_TYPES: Record<string, string> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

export interface KubectlOptions {
  context?: string;
  /**
   * The kubeconfig file the context is in, when kubectl would not find it by itself (the explorer
   * was started with --kubeconfig, or on its local control plane): the command names it.
   */
  kubeconfig?: string;
}

const IMPERSONATION_FLAGS = new Map([['impersonate-user', '--as'], ['impersonate-group', '--as-group'], ['impersonate-uid', '--as-uid']]);

/**
 * kubectl's flags for the request's Impersonate-* headers: `--as`, `--as-group` (one per group
 * line) and `--as-uid`, which make kubectl send the same headers (client-go's impersonating round
 * tripper). kubectl has no flag for Impersonate-Extra-*: a note says so.
 */
function impersonationFlags(req: ExchangeRequest, notes: string[]): string {
  let out = '';
  for (const [k, v] of req.headers) {
    const lower = k.toLowerCase();
    // A Map: a header named `constructor` must not find Object.prototype's.
    const flag = IMPERSONATION_FLAGS.get(lower);
    if (flag) out += ` ${flag} ${shellQuote(v)}`;
    else if (lower.startsWith('impersonate-extra-')) notes.push(`kubectl has no flag for ${k}: set it as as-user-extra in a kubeconfig user.`);
  }
  return out;
}

/** The kubectl command for a request, and notes on what kubectl cannot reproduce exactly. */
export function toKubectl(req: ExchangeRequest, opts: KubectlOptions = {}): { command: string; notes: string[] } {
  const notes: string[] = [];
  const ctx = (opts.kubeconfig ? ` --kubeconfig ${shellQuote(opts.kubeconfig)}` : '') + (opts.context ? ` --context ${shellQuote(opts.context)}` : '') + impersonationFlags(req, notes);
  const path = shellQuote(req.path);
  const body = req.body ?? '';
  const withBody = (cmd: string) => {
    if (!body) return cmd;
    const h = heredoc(body);
    return `${cmd} -f - <<'${h.marker}'\n${h.text}`;
  };
  const accept = headerValue(req.headers, 'Accept');
  const contentType = baseType(headerValue(req.headers, 'Content-Type'));
  if (accept && req.method !== 'PATCH') notes.push(`kubectl --raw chooses its own Accept header; this request sent "${accept}".`);
  switch (req.method) {
    case 'GET':
      return { command: `kubectl get --raw ${path}${ctx}`, notes };
    case 'POST':
      if (contentType && contentType !== 'application/json' && contentType !== 'application/yaml') notes.push(`kubectl create --raw sends the file as it is read; this request's Content-Type was "${contentType}".`);
      return { command: withBody(`kubectl create --raw ${path}${ctx}`), notes };
    case 'PUT':
      return { command: withBody(`kubectl replace --raw ${path}${ctx}`), notes };
    case 'DELETE':
      if (body) notes.push('kubectl delete --raw sends no body; put DeleteOptions in query parameters (propagationPolicy, gracePeriodSeconds) instead.');
      return { command: `kubectl delete --raw ${path}${ctx}`, notes };
    case 'PATCH': {
      // A path a link set may not decode (a lone `%`): then it names no object kubectl could patch.
      let ref: ReturnType<typeof parseResourcePath>;
      try {
        ref = parseResourcePath(req.path);
      } catch {
        ref = null;
      }
      const q = queryOf(req.path);
      if (!ref || !ref.name) {
        notes.push('kubectl has no raw PATCH; this path does not name one object.');
        return { command: `# no kubectl equivalent for PATCH ${commentText(req.path)}`, notes };
      }
      const target = `${shellQuote(ref.group ? `${ref.resource}.${ref.version}.${ref.group}` : ref.resource)} ${shellQuote(ref.name)}`;
      const ns = ref.namespace ? ` -n ${shellQuote(ref.namespace)}` : '';
      const sub = ref.subresource ? ` --subresource=${shellQuote(ref.subresource)}` : '';
      const extra = [q.dryRun === 'All' ? ' --dry-run=server' : '', q.fieldManager ? ` --field-manager=${shellQuote(q.fieldManager)}` : ''].join('');
      if (contentType === 'application/apply-patch+yaml') {
        const force = q.force === 'true' ? ' --force-conflicts' : '';
        return { command: withBody(`kubectl apply --server-side${force}${extra}${sub}${ns}${ctx}`), notes };
      }
      const type = PATCH_TYPES[contentType] ?? 'strategic';
      return { command: `kubectl patch ${target}${ns}${sub} --type=${type} -p ${shellQuote(body)}${extra}${ctx}`, notes };
    }
    default:
      notes.push(`kubectl cannot send ${commentText(req.method)}.`);
      return { command: `# no kubectl equivalent for ${commentText(req.method)} ${commentText(req.path)}`, notes };
  }
}
