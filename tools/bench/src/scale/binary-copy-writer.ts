import { toFloat16Bits } from './float16';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const TEXT_OID = 25;

/**
 * Builds a PostgreSQL binary COPY stream (COPY … FROM … WITH (FORMAT binary)): the 19-byte header,
 * one tuple per row (field count, then each field as length + bytes, big-endian), the -1 trailer.
 * Field encoders match the types' binary receive functions, including pgvector's vector
 * (int16 dim, int16 unused, float4 × dim) and halfvec (int16 dim, int16 unused, half × dim).
 */
export class BinaryCopyWriter {
  private buffer: Buffer;
  private offset = 0;
  private rows = 0;

  constructor(initialBytes = 1 << 20) {
    this.buffer = Buffer.alloc(Math.max(initialBytes, 64));
    SIGNATURE.copy(this.buffer, 0);
    this.offset = SIGNATURE.length;
    this.buffer.writeInt32BE(0, this.offset); // flags
    this.buffer.writeInt32BE(0, this.offset + 4); // header extension length
    this.offset += 8;
  }

  get rowCount(): number {
    return this.rows;
  }

  get byteLength(): number {
    return this.offset;
  }

  row(fieldCount: number): this {
    this.ensure(2);
    this.buffer.writeInt16BE(fieldCount, this.offset);
    this.offset += 2;
    this.rows++;
    return this;
  }

  null(): this {
    this.ensure(4);
    this.buffer.writeInt32BE(-1, this.offset);
    this.offset += 4;
    return this;
  }

  int4(value: number): this {
    this.ensure(8);
    this.buffer.writeInt32BE(4, this.offset);
    this.buffer.writeInt32BE(value, this.offset + 4);
    this.offset += 8;
    return this;
  }

  int8(value: number): this {
    this.ensure(12);
    this.buffer.writeInt32BE(8, this.offset);
    this.buffer.writeBigInt64BE(BigInt(value), this.offset + 4);
    this.offset += 12;
    return this;
  }

  /** A uuid in its canonical text form. */
  uuid(value: string): this {
    const hex = value.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`not a uuid: ${value}`);
    this.ensure(20);
    this.buffer.writeInt32BE(16, this.offset);
    this.buffer.write(hex, this.offset + 4, 16, 'hex');
    this.offset += 20;
    return this;
  }

  text(value: string): this {
    const length = Buffer.byteLength(value, 'utf8');
    this.ensure(4 + length);
    this.buffer.writeInt32BE(length, this.offset);
    this.buffer.write(value, this.offset + 4, length, 'utf8');
    this.offset += 4 + length;
    return this;
  }

  /** A one-dimensional text[] (lower bound 1); no NULL elements. */
  textArray(values: readonly string[]): this {
    const lengths = values.map((value) => Buffer.byteLength(value, 'utf8'));
    const body = values.length === 0 ? 12 : 20 + lengths.reduce((sum, n) => sum + 4 + n, 0);
    this.ensure(4 + body);
    let o = this.offset;
    this.buffer.writeInt32BE(body, o);
    this.buffer.writeInt32BE(values.length === 0 ? 0 : 1, o + 4); // dimensions
    this.buffer.writeInt32BE(0, o + 8); // has nulls
    this.buffer.writeInt32BE(TEXT_OID, o + 12);
    o += 16;
    if (values.length > 0) {
      this.buffer.writeInt32BE(values.length, o);
      this.buffer.writeInt32BE(1, o + 4);
      o += 8;
      values.forEach((value, i) => {
        this.buffer.writeInt32BE(lengths[i], o);
        this.buffer.write(value, o + 4, lengths[i], 'utf8');
        o += 4 + lengths[i];
      });
    }
    this.offset = o;
    return this;
  }

  /** pgvector `vector`: 4-byte floats. */
  vector(values: ArrayLike<number>): this {
    const body = 4 + 4 * values.length;
    this.ensure(4 + body);
    let o = this.writeVectorHeader(body, values.length);
    for (let i = 0; i < values.length; i++, o += 4) this.buffer.writeFloatBE(values[i], o);
    this.offset = o;
    return this;
  }

  /** pgvector `halfvec`: IEEE half floats. */
  halfvec(values: ArrayLike<number>): this {
    const body = 4 + 2 * values.length;
    this.ensure(4 + body);
    let o = this.writeVectorHeader(body, values.length);
    for (let i = 0; i < values.length; i++, o += 2) this.buffer.writeUInt16BE(toFloat16Bits(values[i]), o);
    this.offset = o;
    return this;
  }

  /** The finished stream (header, rows, trailer). The writer must not be used afterwards. */
  finish(): Uint8Array {
    this.ensure(2);
    this.buffer.writeInt16BE(-1, this.offset);
    this.offset += 2;
    return this.buffer.subarray(0, this.offset);
  }

  private writeVectorHeader(body: number, dimension: number): number {
    if (dimension < 1 || dimension > 16000)
      throw new RangeError(`vector dimension out of range: ${dimension}`);
    this.buffer.writeInt32BE(body, this.offset);
    this.buffer.writeInt16BE(dimension, this.offset + 4);
    this.buffer.writeInt16BE(0, this.offset + 6);
    return this.offset + 8;
  }

  private ensure(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.offset + bytes) size *= 2;
    const grown = Buffer.alloc(size);
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }
}
