// Request header lines and targets, checked as node:http checks them before anything is sent.

/** An HTTP token (RFC 9110 §5.6.2): what a header name may be. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_OK = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The kubeconfig's credential headers of a target, as request lines, with the names they replace. */
export interface CredentialLines {
  /** Lower-case names: a header of the page with one of them is left out. */
  names: ReadonlySet<string>;
  lines: string;
}

export function credentialLines(override: Readonly<Record<string, string | readonly string[]>>): CredentialLines {
  const names = new Set<string>();
  let lines = '';
  for (const k in override) {
    names.add(k.toLowerCase());
    const v = override[k]!;
    // A list is one line per value (Impersonate-Group): the API server reads each line as one group.
    for (const one of typeof v === 'string' ? [v] : v) lines += checkedLine(k, one);
  }
  return { names, lines };
}

/**
 * Header pairs as request lines, checked as node:http checks them (a token for a name; no CR, LF
 * or NUL in a value): what fails is refused before anything is sent. Pairs with a name that
 * `credentials` has are left out: the kubeconfig's own come last, and win. `skip` names (lower
 * case) are left out too.
 */
export function headerLines(pairs: readonly [string, string][], credentials: CredentialLines, skip?: ReadonlySet<string>): string {
  let out = '';
  for (const [k, v] of pairs) {
    const lower = k.toLowerCase();
    if (credentials.names.has(lower) || skip?.has(lower)) continue;
    out += checkedLine(k, v);
  }
  return out + credentials.lines;
}

function checkedLine(name: string, value: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
  if (!HEADER_VALUE_OK.test(value)) throw new TypeError(`invalid character in the value of header ${name}`);
  return `${name}: ${value}\r\n`;
}

/** A request target as node:http accepts it: no spaces or control characters. */
export function checkPath(path: string): void {
  if (!/^\/[\x21-\x7e\x80-\xff]*$/.test(path)) throw new TypeError('the request path has characters that must be escaped');
}

