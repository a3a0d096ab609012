// Request bodies in the binary formats: the console's body editor holds the object as JSON (or
// YAML), and with a Protobuf or CBOR Content-Type the bytes sent are that object encoded, so the
// presets carry real bodies. The text stays what the user sees and edits; the encoded bytes are
// shown (size, hex) before sending. Pure.
import { baseType, parseJson, parseYaml } from '../../codecs';
import { encodeCbor } from '../../codecs/cbor';
import { encodeK8sObject, type K8sSchema, withBinaryBytes } from '../../codecs/protobuf';

export type EncodedBody =
  | { kind: 'text' }
  | { kind: 'binary'; format: 'Protobuf' | 'CBOR'; bytes: Uint8Array }
  | { kind: 'error'; error: string }
  /** Protobuf needs the schemas, which are still loading. */
  | { kind: 'pending' };

/** True for Content-Types whose body the console encodes from the edited object. */
export function isBinaryContentType(contentType: string): 'protobuf' | 'cbor' | undefined {
  const t = baseType(contentType);
  if (t === 'application/vnd.kubernetes.protobuf') return 'protobuf';
  if (t === 'application/cbor' || t === 'application/apply-patch+cbor') return 'cbor';
  return undefined;
}

export function encodeRequestBody(text: string, contentType: string, schema: K8sSchema | undefined): EncodedBody {
  const binary = isBinaryContentType(contentType);
  if (!binary || text.trim() === '') return { kind: 'text' };
  const parsed = text.trim().startsWith('{') || text.trim().startsWith('[') ? parseJson(text) : parseYaml(text);
  if (!parsed.ok) return { kind: 'error', error: `The body is not valid JSON or YAML, so it cannot be encoded: ${parsed.error}` };
  // Both need the schemas: CBOR to send []byte fields (binaryData, Secret data) as byte strings.
  if (!schema) return { kind: 'pending' };
  if (binary === 'cbor') {
    try {
      return { kind: 'binary', format: 'CBOR', bytes: encodeCbor(withBinaryBytes(schema, parsed.value)) };
    } catch (e) {
      return { kind: 'error', error: e instanceof Error ? e.message : String(e) };
    }
  }
  const enc = encodeK8sObject(schema, parsed.value);
  if (!enc.ok) return { kind: 'error', error: enc.error };
  return { kind: 'binary', format: 'Protobuf', bytes: enc.value };
}
