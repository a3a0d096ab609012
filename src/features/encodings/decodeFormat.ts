// One format's body read into its value, as the Encodings view shows and compares it. Every
// reader keeps an int64 beyond 2^53 exactly, as a bigint (codecs/json.ts, yaml.ts, cbor.ts):
// read as a float in one format and exactly in another, the same object would look different.
import { decodeCbor } from '../../codecs/cbor';
import { parseJsonExact } from '../../codecs/json';
import { decodeK8sObject, type K8sSchema } from '../../codecs/protobuf';
import { parseYaml } from '../../codecs/text';

export type FormatLabel = 'JSON' | 'YAML' | 'Protobuf' | 'CBOR';

export function decodeFormat(label: FormatLabel, bytes: Uint8Array, schema: K8sSchema): { value: unknown } | { error: string } {
  switch (label) {
    case 'JSON':
      try {
        return { value: parseJsonExact(new TextDecoder().decode(bytes)) };
      } catch (e) {
        return { error: String(e) };
      }
    case 'YAML': {
      const p = parseYaml(new TextDecoder().decode(bytes));
      return p.ok ? { value: p.value } : { error: p.error };
    }
    case 'Protobuf': {
      const d = decodeK8sObject(schema, bytes);
      if (!d.ok) return { error: d.error };
      if (d.value.object === undefined) return { error: `${d.value.apiVersion} ${d.value.kind} is not in the schemas: fields by number only` };
      return { value: d.value.object };
    }
    case 'CBOR': {
      const d = decodeCbor(bytes);
      return d.ok ? { value: d.value } : { error: d.error };
    }
  }
}
