// Base64 both ways, in one place (the page through src/codecs/base64.ts, the proxy's X-ray journal): HAR bodies, protobuf/CBOR `[]byte` fields (which JSON carries as
// standard base64, as Go's encoding/json does), and continue tokens (base64url without padding on
// some servers, standard on others).

/** Standard base64 with padding, as Go's encoding/json writes `[]byte`. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  // String.fromCharCode takes its arguments on the stack: chunks keep large bodies within limits.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Standard or URL-safe base64, with or without padding. Throws on characters outside either alphabet. */
export function fromBase64(text: string): Uint8Array {
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  const s = atob(std + '='.repeat((4 - (std.length % 4)) % 4));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Standard base64 with padding and nothing else, as Go's encoding/json reads `[]byte`. Throws on anything else. */
export function fromStdBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('not standard base64 with padding');
  return fromBase64(text);
}
