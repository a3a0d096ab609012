// Base64 lives in protocol/base64.ts, shared with the proxy's X-ray journal; the codecs' callers read it here.
export { fromBase64, fromStdBase64, toBase64 } from '../../protocol/base64';
