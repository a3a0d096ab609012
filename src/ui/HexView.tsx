import { hexLines } from '../codecs/hex';

/** A hex dump of a binary body (protobuf, CBOR): offset, bytes, printable ASCII. */
export function HexView({ bytes, limit = 64 * 1024 }: { bytes: Uint8Array; limit?: number }) {
  const lines = hexLines(bytes, limit);
  return (
    <div>
      <pre className="hex" aria-label="Hex view">
        {lines.map((l) => `${l.offset}  ${l.hex} |${l.ascii}|`).join('\n')}
      </pre>
      {bytes.length > limit && (
        <p className="muted small">
          First {limit} of {bytes.length} bytes shown.
        </p>
      )}
    </div>
  );
}
