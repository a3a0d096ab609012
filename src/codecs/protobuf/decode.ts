// Whole bodies: one `application/vnd.kubernetes.protobuf` object, or a watch stream, decoded into
// the JSON form the server would send.
import { errText } from './errors';
import { decodeK8sObject, type SchemaDecoded } from './json';
import { decodeMessage } from './reader';
import { type K8sSchema, META } from './schema';

export { decodeK8sObject, type SchemaDecoded } from './json';

export interface SchemaWatchEvent {
  /** Offset of the frame's 4-byte length in the stream. */
  offset: number;
  type: string;
  object: SchemaDecoded;
}

export interface SchemaWatch {
  events: SchemaWatchEvent[];
  /** Bytes after the last complete frame (a running watch mid-frame). */
  rest: number;
  error?: string;
}

const WatchEventFields = { type: 1, object: 2 };

/** A `;stream=watch` protobuf stream: 4-byte big-endian length, then a metav1.WatchEvent, repeated. */
export function decodeK8sWatch(schema: K8sSchema, bytes: Uint8Array): SchemaWatch {
  const events: SchemaWatchEvent[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const evType = schema.root.lookupType(`${META}.WatchEvent`);
  let pos = 0;
  while (pos + 4 <= bytes.length) {
    const len = view.getUint32(pos, false);
    if (pos + 4 + len > bytes.length) break;
    const frame = bytes.subarray(pos + 4, pos + 4 + len);
    let ev: { type?: string; object?: { raw?: Uint8Array } };
    try {
      ev = decodeMessage(evType, frame) as typeof ev;
    } catch (e) {
      return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: malformed WatchEvent: ${errText(e)}` };
    }
    if (!ev.type) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: WatchEvent without a type (field ${WatchEventFields.type}).` };
    const raw = ev.object?.raw;
    if (!raw) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: WatchEvent without an object (field ${WatchEventFields.object}).` };
    const obj = decodeK8sObject(schema, raw);
    if (!obj.ok) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: ${obj.error}` };
    events.push({ offset: pos, type: ev.type, object: obj.value });
    pos += 4 + len;
  }
  return { events, rest: bytes.length - pos };
}

