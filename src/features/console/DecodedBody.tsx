// The "Decoded" body view for binary responses: CBOR as the JSON tree it stands for, protobuf as
// the JSON form its schema gives (the .proto schemas load on first use; until then, and for
// kinds they do not know, a field tree by number). Decoding happens only while this view is
// shown, and every decoded string is rendered as a React text node, never as markup.
import { useMemo } from 'react';
import { baseType, mediaParams } from '../../codecs';
import { type CborDecoded, decodeCbor, decodeCborSeq } from '../../codecs/cbor';
import { type DecodedK8sProtobuf, decodeK8sProtobuf, decodeProtobufWatch, type PbField, type PbResult, decodeK8sObject, decodeK8sWatch, type SchemaDecoded } from '../../codecs/protobuf';
import { JsonTree } from '../../ui/JsonTree';
import { useK8sSchema } from '../../ui/useK8sSchema';


function SchemaObject({ result, label, raw }: { result: PbResult<SchemaDecoded>; label: string; raw?: Uint8Array }) {
  if (!result.ok) return <p className="error-box">{result.error}</p>;
  const { apiVersion, kind, object, type, fields } = result.value;
  return (
    <div aria-label={label}>
      <p>
        <strong>
          {apiVersion} {kind}
        </strong>{' '}
        <span className="muted small">
          {type ? (
            <>
              decoded with the schema: message <code>{type}</code>, shown as the JSON the server would send
            </>
          ) : (
            <>not in the explorer's schemas (a newer server, an aggregated API?): fields by number only</>
          )}
        </span>
      </p>
      {object !== undefined ? <JsonTree value={object} openDepth={4} label={`${label} (JSON form)`} /> : fields && <div className="tree" role="tree" aria-label="Protobuf fields"><PbFieldList fields={fields} depth={0} /></div>}
      {object !== undefined && raw && (
        <details>
          <summary className="muted small">The same bytes by field number</summary>
          <PbObject result={decodeK8sProtobuf(raw)} label={`${label} by field number`} />
        </details>
      )}
    </div>
  );
}

const WIRE_TYPES: Record<number, string> = { 0: 'varint', 1: 'fixed64', 2: 'length-delimited', 5: 'fixed32' };

/** At most this many watch events are rendered (the newest). */
const SHOWN_EVENTS = 200;

function PbValueView({ field, depth }: { field: PbField; depth: number }) {
  const v = field.value;
  const head = (
    <>
      <span className="k">#{field.fieldNumber}</span> <span className="muted small">({WIRE_TYPES[field.wireType] ?? field.wireType})</span>
    </>
  );
  if (v.type === 'message') {
    return (
      <li>
        <details open={depth < 6}>
          <summary>
            {head} <span className="muted">message, {v.fields.length} {v.fields.length === 1 ? 'field' : 'fields'}</span>
            {v.text !== undefined && <span className="muted"> — also reads as text: {JSON.stringify(v.text)}</span>}
          </summary>
          <PbFieldList fields={v.fields} depth={depth + 1} />
        </details>
      </li>
    );
  }
  return (
    <li>
      {head}: {v.type === 'text' && <span className="s">{JSON.stringify(v.value)}</span>}
      {(v.type === 'varint' || v.type === 'fixed32' || v.type === 'fixed64') && <span className="n">{String(v.value)}</span>}
      {v.type === 'bytes' && (
        <>
          <span className="muted">{v.length} bytes</span> <code>{v.hex}</code>
        </>
      )}
    </li>
  );
}

function PbFieldList({ fields, depth }: { fields: PbField[]; depth: number }) {
  return (
    <ul style={depth === 0 ? { paddingLeft: 0 } : undefined}>
      {fields.map((f, i) => (
        <PbValueView key={i} field={f} depth={depth} />
      ))}
    </ul>
  );
}

function PbObject({ result, label }: { result: PbResult<DecodedK8sProtobuf>; label: string }) {
  if (!result.ok) return <p className="error-box">{result.error}</p>;
  const { envelope, fields } = result.value;
  return (
    <div aria-label={label}>
      <p>
        <strong>
          {envelope.apiVersion} {envelope.kind}
        </strong>{' '}
        <span className="muted small">
          from the runtime.Unknown envelope after the magic bytes <code>k8s\0</code>
          {envelope.contentType && ` · content type ${envelope.contentType}`}
        </span>
      </p>
      <div className="tree" role="group" aria-label="Protobuf fields">
        <PbFieldList fields={fields} depth={0} />
      </div>
    </div>
  );
}

function CborValue({ decoded, label }: { decoded: CborDecoded; label: string }) {
  if (!decoded.ok) return <p className="error-box">{decoded.error}</p>;
  return (
    <>
      <JsonTree value={decoded.value} openDepth={4} label={label} />
      {decoded.bytesAt.length > 0 && (
        <p className="muted small">
          Bytes on the wire (CBOR tag 22 or non-UTF-8 byte strings), shown as base64 as in JSON: {decoded.bytesAt.join(', ')}
        </p>
      )}
    </>
  );
}

function Rest({ rest, error }: { rest: number; error?: string }) {
  if (error) return <p className="error-box">{error}</p>;
  if (rest > 0) return <p className="muted small">{rest} bytes of an item still arriving (or cut off).</p>;
  return null;
}

export function DecodedBody({ body, contentType, watch }: { body: Uint8Array; contentType: string | undefined; watch: boolean }) {
  const type = baseType(contentType);
  const protobuf = type === 'application/vnd.kubernetes.protobuf';
  // The server labels a CBOR watch `application/cbor-seq`; a protobuf watch `...;stream=watch`.
  const stream = protobuf ? mediaParams(contentType).stream === 'watch' || watch : type === 'application/cbor-seq' || watch;
  const { schema, error: schemaError } = useK8sSchema(protobuf);
  const view = useMemo(() => {
    if (protobuf && schema) return stream ? { kind: 'schemaWatch' as const, w: decodeK8sWatch(schema, body) } : { kind: 'schema' as const, r: decodeK8sObject(schema, body) };
    if (protobuf) return stream ? { kind: 'pbWatch' as const, w: decodeProtobufWatch(body) } : { kind: 'pb' as const, r: decodeK8sProtobuf(body) };
    return stream ? { kind: 'cborSeq' as const, s: decodeCborSeq(body) } : { kind: 'cbor' as const, d: decodeCbor(body) };
  }, [body, protobuf, stream, schema]);

  return (
    <div aria-label="Decoded body">
      {protobuf && !schema && (
        <p className="muted small">
          {schemaError ? `The protobuf schemas could not be loaded (${schemaError}): ` : 'Loading the protobuf schemas… meanwhile '}
          fields are shown by number (<code>#1</code>, <code>#2</code>…) with their wire type. A length-delimited field is shown as a nested message
          when its bytes parse as one, else as text when printable, else as hex.
        </p>
      )}
      {view.kind === 'schema' && <SchemaObject result={view.r} raw={body} label="Decoded protobuf" />}
      {view.kind === 'schemaWatch' && (
        <>
          <p className="muted small">Watch frames (4-byte length, then a WatchEvent): {view.w.events.length} events.</p>
          <ol aria-label="Decoded events">
            {view.w.events.slice(-SHOWN_EVENTS).map((ev) => (
              <li key={ev.offset}>
                <details open={view.w.events.length <= 5}>
                  <summary>
                    <strong>{ev.type}</strong> <span className="muted small">frame at offset {ev.offset}</span>
                  </summary>
                  <SchemaObject result={{ ok: true, value: ev.object }} label={`Event at offset ${ev.offset}`} />
                </details>
              </li>
            ))}
          </ol>
          <Rest rest={view.w.rest} error={view.w.error} />
        </>
      )}
      {view.kind === 'cbor' && <CborValue decoded={view.d} label="Decoded CBOR" />}
      {view.kind === 'pb' && <PbObject result={view.r} label="Decoded protobuf" />}
      {view.kind === 'cborSeq' && (
        <>
          <p className="muted small">CBOR sequence: {view.s.items.length} items.</p>
          <ol aria-label="Decoded events">
            {view.s.items.slice(-SHOWN_EVENTS).map((item) => (
              <li key={item.offset}>
                <CborValue decoded={item.decoded} label={`Item at offset ${item.offset}`} />
              </li>
            ))}
          </ol>
          <Rest rest={view.s.rest} error={view.s.error} />
        </>
      )}
      {view.kind === 'pbWatch' && (
        <>
          <p className="muted small">Watch frames (4-byte length, then a WatchEvent): {view.w.events.length} events.</p>
          <ol aria-label="Decoded events">
            {view.w.events.slice(-SHOWN_EVENTS).map((ev) => (
              <li key={ev.offset}>
                <details open={view.w.events.length <= 5}>
                  <summary>
                    <strong>{ev.type}</strong> <span className="muted small">frame at offset {ev.offset}</span>
                  </summary>
                  <PbObject result={ev.object} label={`Event at offset ${ev.offset}`} />
                </details>
              </li>
            ))}
          </ol>
          <Rest rest={view.w.rest} error={view.w.error} />
        </>
      )}
    </div>
  );
}
