// Writing messages by walking the descriptor, with protobufjs' Writer (not Type.encode: generated
// code, which the page's Content-Security-Policy forbids).
import protobuf from 'protobufjs';

const WIRE: Record<string, number> = { double: 1, fixed64: 1, sfixed64: 1, float: 5, fixed32: 5, sfixed32: 5, string: 2, bytes: 2 };

function writeScalar(w: protobuf.Writer, id: number, type: string, v: unknown): void {
  w.uint32((id << 3) | (WIRE[type] ?? 0));
  switch (type) {
    case 'string':
      w.string(v as string);
      return;
    case 'bytes':
      w.bytes(v as Uint8Array);
      return;
    case 'bool':
      w.bool(v as boolean);
      return;
    case 'double':
      w.double(v as number);
      return;
    case 'float':
      w.float(v as number);
      return;
    default:
      (w as unknown as Record<string, (x: number) => void>)[type]!.call(w, v as number);
  }
}

/** Writes a plain message (fields by proto name, as jsonToMessage makes them) of type `t`. */
export function writeMessage(t: protobuf.Type, m: Record<string, unknown>, w: protobuf.Writer = protobuf.Writer.create()): protobuf.Writer {
  for (const f of [...t.fieldsArray].sort((a, b) => a.id - b.id)) {
    const v = m[f.name];
    if (v === undefined || v === null) continue;
    const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : undefined;
    if (f.map) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        w.uint32((f.id << 3) | 2).fork();
        writeScalar(w, 1, (f as unknown as protobuf.MapField).keyType, k);
        if (sub) writeMessage(sub, x as Record<string, unknown>, w.uint32((2 << 3) | 2).fork()).ldelim();
        else writeScalar(w, 2, f.type, x);
        w.ldelim();
      }
    } else if (f.repeated) {
      for (const x of v as unknown[]) {
        if (sub) writeMessage(sub, x as Record<string, unknown>, w.uint32((f.id << 3) | 2).fork()).ldelim();
        else writeScalar(w, f.id, f.type, x);
      }
    } else if (sub) writeMessage(sub, v as Record<string, unknown>, w.uint32((f.id << 3) | 2).fork()).ldelim();
    else writeScalar(w, f.id, f.type, v);
  }
  return w;
}

