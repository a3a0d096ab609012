// What differs between two exchanges, for the side-by-side view: request line, status, and each
// response header by name (values that change on every request, such as Date and Audit-Id, are
// listed too: that they differ is itself worth seeing).
import { decodeText, type Exchange, headerValue } from '../../k8s/client';

export interface Difference {
  what: string;
  left: string;
  right: string;
}

export function compareExchanges(a: Exchange, b: Exchange): Difference[] {
  const out: Difference[] = [];
  const push = (what: string, left: string | undefined, right: string | undefined) => {
    if ((left ?? '') !== (right ?? '')) out.push({ what, left: left ?? '(none)', right: right ?? '(none)' });
  };
  push('request', `${a.request.method} ${a.request.path}`, `${b.request.method} ${b.request.path}`);
  push('request body', a.request.body, b.request.body);
  push('status', a.response ? String(a.response.status) : a.error, b.response ? String(b.response.status) : b.error);
  const names = new Set([...(a.response?.headers ?? []), ...(b.response?.headers ?? [])].map(([k]) => k.toLowerCase()));
  for (const n of [...names].sort()) push(n, a.response && headerValue(a.response.headers, n), b.response && headerValue(b.response.headers, n));
  const ab = a.response?.body ?? new Uint8Array();
  const bb = b.response?.body ?? new Uint8Array();
  if (ab.length !== bb.length || decodeText(ab) !== decodeText(bb)) out.push({ what: 'body', left: `${ab.length} bytes`, right: `${bb.length} bytes` });
  return out;
}
