// A hex dump for bodies that are not text (protobuf, CBOR): offset, 16 bytes in hex, printable ASCII.

export interface HexLine {
  offset: string;
  hex: string;
  ascii: string;
}

export function hexLines(bytes: Uint8Array, limit = 64 * 1024): HexLine[] {
  const lines: HexLine[] = [];
  const end = Math.min(bytes.length, limit);
  for (let o = 0; o < end; o += 16) {
    const row = bytes.subarray(o, Math.min(o + 16, end));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0'));
    lines.push({
      offset: o.toString(16).padStart(8, '0'),
      hex: [hex.slice(0, 8).join(' '), hex.slice(8).join(' ')].join('  ').padEnd(16 * 3, ' '),
      ascii: Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
    });
  }
  return lines;
}

export function hexDump(bytes: Uint8Array, limit?: number): string {
  return hexLines(bytes, limit)
    .map((l) => `${l.offset}  ${l.hex} |${l.ascii}|`)
    .join('\n');
}
