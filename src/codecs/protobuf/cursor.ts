// The wire reader every decoder here walks messages with (reader.ts, compiled.ts, lazy.ts,
// watchStream.ts). A file of its own, with no import: the watch worker reads Protobuf watch
// frames with it and must not pull protobufjs or the schema into its bundle.
const utf8 = new TextDecoder();

// A small reader of our own for speed (protobufjs' Reader allocates a Long per int64 and goes
// through a generic string decoder); the same wire rules.
export class Cursor {
  pos = 0;
  readonly view: DataView;
  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  fail(what: string): never {
    throw new Error(`${what} at offset ${this.pos}`);
  }
  varint(): number {
    const b = this.buf;
    let p = this.pos;
    let x = b[p++]!;
    if (x < 0x80) {
      this.pos = p;
      return x;
    }
    let result = x & 0x7f;
    let mul = 0x80;
    // Up to 7 bytes (49 bits) the sum is exact in a double; longer ones go through bigint.
    for (let i = 1; i < 7; i++) {
      if (p >= b.length) this.fail('truncated varint');
      x = b[p++]!;
      result += (x & 0x7f) * mul;
      if (x < 0x80) {
        this.pos = p;
        return result;
      }
      mul *= 0x80;
    }
    return this.longVarint();
  }
  /**
   * A varint of 8 to 10 bytes, read again from its start exactly. Negative int32 and int64 travel
   * as 10-byte two's complement: folded back into the signed range (in doubles, -1 summed to 2^64
   * and came back as 0). Beyond 2^53 the number is the nearest double, as JSON.parse gives for the
   * server's JSON digits.
   */
  private longVarint(): number {
    const b = this.buf;
    let p = this.pos;
    let v = 0n;
    for (let i = 0; i < 10; i++) {
      if (p >= b.length) this.fail('truncated varint');
      const x = b[p++]!;
      v |= BigInt(x & 0x7f) << BigInt(7 * i);
      if (x < 0x80) {
        this.pos = p;
        return Number(BigInt.asIntN(64, v));
      }
    }
    return this.fail('varint longer than 10 bytes');
  }
  length(): number {
    const n = this.varint();
    if (this.pos + n > this.buf.length) this.fail(`a field of ${n} bytes runs past the end (${this.buf.length - this.pos} left)`);
    return n;
  }
  string(): string {
    const n = this.length();
    const b = this.buf;
    const p = this.pos;
    this.pos = p + n;
    if (n < 24) {
      let s = '';
      for (let i = p; i < p + n; i++) {
        const c = b[i]!;
        if (c >= 0x80) return utf8.decode(b.subarray(p, p + n));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8.decode(b.subarray(p, p + n));
  }
  bytes(): Uint8Array {
    const n = this.length();
    const p = this.pos;
    this.pos = p + n;
    return this.buf.slice(p, p + n);
  }
  skip(wt: number): void {
    switch (wt) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2: {
        // Not `this.pos += this.length()`: that reads pos before the length's own bytes are consumed.
        const n = this.length();
        this.pos += n;
        return;
      }
      case 5:
        this.pos += 4;
        break;
      default:
        this.fail(`unsupported wire type ${wt}`);
    }
    if (this.pos > this.buf.length) this.fail('truncated field');
  }
}

