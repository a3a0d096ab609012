// Continue tokens are opaque to clients (API concepts, "Retrieving large results sets in chunks").
// The kube-apiserver's etcd3 storage happens to encode them as unpadded base64url JSON
// {"v":"meta.k8s.io/v1","rv":<etcd revision>,"start":"<key to resume after>"}; an `rv` of -1 marks
// the token a 410 Expired hands out for an inconsistent continuation. We decode it only to show it,
// and label it an implementation detail: nothing here depends on it, and other servers differ.

export interface DecodedContinueToken {
  /** Token format version, `meta.k8s.io/v1` today. */
  v: string;
  /** The storage revision the list is pinned to; -1 when the list continues without one. */
  rv: number;
  /** The storage key, relative to the resource's prefix, that the next chunk starts after. */
  start: string;
}

import { fromBase64 } from '../../codecs/base64';

function base64ToText(s: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(s));
}

/** What a continue token holds, when it is the apiserver's encoding; null when it is not (it need not be). */
export function decodeContinueToken(token: string | undefined): DecodedContinueToken | null {
  if (!token) return null;
  try {
    const v: unknown = JSON.parse(base64ToText(token));
    if (typeof v !== 'object' || v === null) return null;
    const o = v as Record<string, unknown>;
    if (typeof o.v !== 'string' || typeof o.rv !== 'number' || typeof o.start !== 'string') return null;
    return { v: o.v, rv: o.rv, start: o.start };
  } catch {
    return null;
  }
}
