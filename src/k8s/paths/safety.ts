// A request path means what it spells, or it is not sent. Browsers resolve dot segments before
// sending, also percent-encoded ones (WHATWG URL: `%2e%2e` is `..`), so
// `/api/v1/namespaces/%2e%2e/configmaps` would leave as `/api/v1/configmaps`: a cluster-wide list
// instead of a namespaced one, while the explorer showed and recorded the path as typed. The proxy
// refuses such paths too (proxy/src/filter.ts), but it never sees them: the browser already changed
// them. So they are refused here, before anything is sent.

// C0 controls, DEL, C1 controls (NEL among them), LINE SEPARATOR and PARAGRAPH SEPARATOR: the
// WHATWG URL parser removes tab, CR and LF anywhere and C0 controls or spaces at either end;
// the others are invisible, and YAML 1.1 and many log readers take NEL and U+2028/9 for breaks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_NAMES: Record<number, string> = { 0x09: 'a tab', 0x0a: 'a line feed', 0x0d: 'a carriage return', 0x00: 'a NUL', 0x7f: 'DEL', 0x85: 'NEL (next line)', 0x2028: 'a LINE SEPARATOR', 0x2029: 'a PARAGRAPH SEPARATOR' };

/** Why a path cannot be sent as shown, or undefined when it can. */
export function pathProblem(pathAndQuery: string): string | undefined {
  const q = pathAndQuery.indexOf('?');
  const raw = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const control = CONTROL.exec(pathAndQuery);
  if (control) {
    const c = control[0].charCodeAt(0);
    const name = CONTROL_NAMES[c] ?? (c < 0x20 ? 'a control character' : c === 0x7f ? 'DEL' : 'a control character');
    const code = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    return `The path contains ${name} (${code}) at character ${control.index + 1}: the browser drops tabs and line breaks from a URL and percent-encodes other control characters, so what was sent would not be what is shown (…/prod<TAB>-db would go out as …/prod-db). Remove it, or percent-encode it if you mean it.`;
  }
  if (pathAndQuery.includes('#')) return 'The path contains "#": the browser would send only what comes before it (a fragment never leaves the browser). Percent-encode it as %23.';
  if (!raw.startsWith('/')) return 'An API path starts with "/".';
  if (raw.includes('\\')) return 'The path contains a backslash: browsers turn it into "/" before sending. Percent-encode it as %5C if you mean it (the API server will refuse it anyway).';
  const segments = raw.slice(1).split('/');
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg === '') {
      if (i === segments.length - 1) continue; // a trailing slash (or the root path)
      return 'The path has an empty segment ("//"): browsers and servers read it differently, and at the start it would name another host.';
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      return `The segment "${seg}" has a malformed percent-encoding.`;
    }
    if (decoded === '.' || decoded === '..') {
      return `The segment "${seg}" is a dot segment: the browser resolves it before sending (so …/namespaces/${seg}/configmaps would go out as a cluster-wide …/configmaps), and what was sent would not be what is shown. Write the path without it.`;
    }
    if (/[/\\]/.test(decoded)) return `The segment "${seg}" decodes to one containing "/" or "\\": servers may split it into two segments. The API server has no names with slashes.`;
    if (decoded.includes('%')) return `The segment "${seg}" is percent-encoded twice ("%25…"): it would be decoded once here and once more by a server behind it.`;
  }
  return undefined;
}

/** The path and query exactly as the browser will send them (percent-encoding added where needed). */
export function pathAsSent(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, 'http://x');
  return `${url.pathname}${url.search}`;
}

export class RefusedPathError extends Error {
  override name = 'RefusedPathError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Not sent: ${reason}`);
  }
}
