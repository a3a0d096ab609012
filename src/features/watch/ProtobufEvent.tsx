// A Protobuf watch event as it went over the wire: its frame (the 4-byte length and the
// metav1.WatchEvent) as a hex dump, and the object inside it decoded with the schema into the JSON
// form the server would send. The watch worker read only the ObjectMeta head of each event; the
// whole object is decoded here, when someone opens it (the schema loads on first use).
import { decodeK8sObject, type K8sSchema, watchFrameObject } from '../../codecs/protobuf';
import type { KubeObject } from '../../k8s/watch';
import { HexView } from '../../ui/HexView';
import { useK8sSchema } from '../../ui/useK8sSchema';


/** The whole object of a frame in its JSON form, or why not. */
export function decodeFrame(schema: K8sSchema, frame: Uint8Array): { object?: KubeObject; type?: string; error?: string } {
  try {
    const d = decodeK8sObject(schema, watchFrameObject(frame));
    if (!d.ok) return { error: d.error };
    if (d.value.object === undefined) return { error: `${d.value.apiVersion} ${d.value.kind} is not in the explorer's schemas: shown as bytes only` };
    return { object: d.value.object as KubeObject, type: d.value.type };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The decoded object of a frame (undefined while the schema loads). */
export function useDecoded(frame: Uint8Array | undefined): { object?: KubeObject; type?: string; error?: string } | undefined {
  const { schema, error } = useK8sSchema();
  if (!frame) return undefined;
  if (error) return { error: `The Protobuf schema did not load: ${error}` };
  return schema ? decodeFrame(schema, frame) : undefined;
}

export function ProtobufEvent({ frame }: { frame: Uint8Array }) {
  const decoded = useDecoded(frame);
  return (
    <div className="watch-wire" aria-label="Protobuf event">
      <p className="small">
        Sent as Protobuf (<code>application/vnd.kubernetes.protobuf;stream=watch</code>): a frame of {frame.length} bytes, a 4-byte big-endian length ({frame.length - 4}) and a <code>metav1.WatchEvent</code> whose object is a{' '}
        <code>k8s\0</code> envelope.
      </p>
      {!decoded ? (
        <p className="muted small">Loading the Protobuf schema…</p>
      ) : decoded.error ? (
        <p className="error-box">{decoded.error}</p>
      ) : (
        <>
          <p className="muted small">
            Decoded with the schema (message <code>{decoded.type}</code>), shown as the JSON the server would send:
          </p>
          <pre className="watch-json" tabIndex={0} aria-label="Decoded object">
            {JSON.stringify(decoded.object, null, 2)}
          </pre>
        </>
      )}
      <details>
        <summary className="small">The frame’s bytes (hex)</summary>
        <div aria-label="Frame bytes">
          <HexView bytes={frame} />
        </div>
      </details>
    </div>
  );
}
