// What each wire format of formats.ts does with bytes: read one object (the Encodings view's rows),
// encode one (the console's request bodies), and say where each field sits (the hex view). A Record
// over the format ids, so a format added to formats.ts without its codec does not compile.
//
// Every reader keeps an int64 beyond 2^53 exactly, as a bigint (json.ts, yaml.ts, cbor.ts): read
// as a float in one format and exactly in another, the same object would look different.
import { decodeCbor, encodeCbor } from './cbor';
import type { WireFormatId } from './formats';
import { parseJsonExact } from './json';
import { decodeK8sObject, encodeK8sObject, type K8sSchema, withBinaryBytes } from './protobuf';
import { type ByteSpan, cborSpans, protobufSpans } from './spans';
import { parseYaml } from './text';

export type Decoded = { value: unknown } | { error: string };
export type Encoded = { ok: true; value: Uint8Array } | { ok: false; error: string };

export interface FormatCodec {
  /** One object's body read into its value. */
  decode(bytes: Uint8Array, schema: K8sSchema): Decoded;
  /** One object encoded for a request body (binary formats: text formats are sent as the user wrote them). */
  encode?(value: unknown, schema: K8sSchema): Encoded;
  /** Where each part of the body sits, for the hex view (binary formats). */
  spans?(bytes: Uint8Array, schema: K8sSchema | undefined): ByteSpan[];
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export const FORMAT_CODECS: Record<WireFormatId, FormatCodec> = {
  json: {
    decode(bytes) {
      try {
        return { value: parseJsonExact(new TextDecoder().decode(bytes)) };
      } catch (e) {
        return { error: String(e) };
      }
    },
  },
  yaml: {
    decode(bytes) {
      const p = parseYaml(new TextDecoder().decode(bytes));
      return p.ok ? { value: p.value } : { error: p.error };
    },
  },
  protobuf: {
    decode(bytes, schema) {
      const d = decodeK8sObject(schema, bytes);
      if (!d.ok) return { error: d.error };
      if (d.value.object === undefined) return { error: `${d.value.apiVersion} ${d.value.kind} is not in the schemas: fields by number only` };
      return { value: d.value.object };
    },
    encode: (value, schema) => encodeK8sObject(schema, value),
    spans: (bytes, schema) => protobufSpans(schema, bytes),
  },
  cbor: {
    decode(bytes) {
      const d = decodeCbor(bytes);
      return d.ok ? { value: d.value } : { error: d.error };
    },
    // The schemas tell which fields are []byte (binaryData, a Secret's data): CBOR sends those as byte strings.
    encode(value, schema) {
      try {
        return { ok: true, value: encodeCbor(withBinaryBytes(schema, value)) };
      } catch (e) {
        return { ok: false, error: message(e) };
      }
    },
    spans: (bytes) => cborSpans(bytes),
  },
};
