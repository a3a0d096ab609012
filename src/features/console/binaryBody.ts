// Request bodies in the binary formats: the console's body editor holds the object as JSON (or
// YAML), and with a Protobuf or CBOR Content-Type the bytes sent are that object encoded, so the
// presets carry real bodies. The text stays what the user sees and edits; the encoded bytes are
// shown (size, hex) before sending. Pure.
import { parseJson, parseYaml } from '../../codecs';
import { lineOfPath } from '../../codecs/yaml';
import { FORMAT_CODECS } from '../../codecs/formatCodecs';
import { encodedRequestFormat, type WireFormatId } from '../../codecs/formats';
import type { K8sSchema } from '../../codecs/protobuf';

export type EncodedBody =
  | { kind: 'text' }
  /** format: the wire format's label (codecs/formats.ts). */
  | { kind: 'binary'; format: string; bytes: Uint8Array }
  | { kind: 'error'; error: string }
  /** Protobuf needs the schemas, which are still loading. */
  | { kind: 'pending' };

/** The wire format of a Content-Type whose body the console encodes from the edited object (the registry's encodedRequestTypes). */
export function isBinaryContentType(contentType: string): WireFormatId | undefined {
  return encodedRequestFormat(contentType)?.id;
}

export function encodeRequestBody(text: string, contentType: string, schema: K8sSchema | undefined): EncodedBody {
  const format = encodedRequestFormat(contentType);
  const encode = format && FORMAT_CODECS[format.id].encode;
  if (!format || !encode || text.trim() === '') return { kind: 'text' };
  const parsed = text.trim().startsWith('{') || text.trim().startsWith('[') ? parseJson(text) : parseYaml(text);
  if (!parsed.ok) return { kind: 'error', error: `The body is not valid JSON or YAML, so it cannot be encoded: ${parsed.error}` };
  // Both need the schemas: CBOR to send []byte fields (binaryData, Secret data) as byte strings.
  if (!schema) return { kind: 'pending' };
  const enc = encode(parsed.value, schema);
  if (!enc.ok) {
    const line = lineOfError(text, enc.error);
    return { kind: 'error', error: line !== undefined ? `line ${line}: ${enc.error}` : enc.error };
  }
  return { kind: 'binary', format: format.label, bytes: enc.value };
}

/**
 * The line of the field an encoding error names: the codec's errors start with the field's path
 * (`spec.replicas: …`, `metadata.labels["a"]: …`, `spec.containers[0].ports[1].containerPort: …`).
 */
function lineOfError(text: string, error: string): number | undefined {
  const m = /^((?:[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\]|\.(?=[A-Za-z_$]))+): /.exec(error);
  if (!m) return undefined;
  const tokens: (string | number)[] = [];
  for (const t of m[1]!.matchAll(/([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) tokens.push(t[1] ?? (t[2] !== undefined ? Number(t[2]) : (JSON.parse(t[3]!) as string)));
  return lineOfPath(text, tokens);
}
