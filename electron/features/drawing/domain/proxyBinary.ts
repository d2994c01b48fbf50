// Binary readers of the proxy graphics stream: little-endian fields of a command's data and the
// DWG bit codes (BS, BL, BD, DD, RD) of its LWPOLYLINE command. Reads past the end throw OutOfData.

/** A read past the end of a command's data (the command is skipped). */
export class OutOfData extends Error {}

/** Little-endian reader over one command's data; reads past the end throw OutOfData (caught per command). */
export class Bytes {
  private readonly view: DataView;
  at = 0;
  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  private need(n: number): void {
    if (this.at + n > this.data.length) throw new OutOfData();
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.at, true);
    this.at += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }
  vertex(): [number, number, number] {
    return [this.f64(), this.f64(), this.f64()];
  }
  /** Zero-terminated string padded to 4 bytes (PS): UTF-8, or UTF-16LE (PUS) when `wide`. */
  paddedString(wide: boolean): string {
    const step = wide ? 2 : 1;
    let end = this.at;
    while (end + step <= this.data.length && (this.data[end] !== 0 || (wide && this.data[end + 1] !== 0))) end += step;
    if (end + step > this.data.length) throw new OutOfData();
    const raw = this.data.subarray(this.at, end);
    this.at = Math.min(this.data.length, Math.ceil((end + step) / 4) * 4);
    return new TextDecoder(wide ? 'utf-16le' : 'utf-8').decode(raw);
  }
}

/** DWG bit-stream reader (most significant bit first) for the LWPOLYLINE command's bit-coded data. */
export class Bits {
  private bit = 0;
  constructor(private readonly data: Uint8Array) {}
  private take(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.data[this.bit >> 3];
      if (byte === undefined) throw new OutOfData();
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }
  private rawBytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.take(8);
    return out;
  }
  /** RD: a raw little-endian double. */
  rawDouble(): number {
    return new DataView(this.rawBytes(8).buffer).getFloat64(0, true);
  }
  /** BS: bit short. */
  bitShort(): number {
    const code = this.take(2);
    if (code === 0) return new DataView(this.rawBytes(2).buffer).getInt16(0, true);
    return code === 1 ? this.take(8) : code === 2 ? 0 : 256;
  }
  /** BL: bit long. */
  bitLong(): number {
    const code = this.take(2);
    if (code === 0) return new DataView(this.rawBytes(4).buffer).getInt32(0, true);
    return code === 1 ? this.take(8) : 0;
  }
  /** BD: bit double. */
  bitDouble(): number {
    const code = this.take(2);
    return code === 0 ? this.rawDouble() : code === 1 ? 1 : 0;
  }
  /** DD: bit double with a default (the previous value), patched by 0, 4, 6 or all 8 bytes. */
  bitDoubleDefault(fallback: number): number {
    const code = this.take(2);
    if (code === 0) return fallback;
    if (code === 3) return this.rawDouble();
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, fallback, true);
    if (code === 2) {
      bytes[4] = this.take(8);
      bytes[5] = this.take(8);
    }
    for (let i = 0; i < 4; i++) bytes[i] = this.take(8);
    return new DataView(bytes.buffer).getFloat64(0, true);
  }
}
