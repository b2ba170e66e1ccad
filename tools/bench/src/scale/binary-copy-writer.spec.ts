import { BinaryCopyWriter } from './binary-copy-writer';

describe('BinaryCopyWriter', () => {
  it('writes the header, tuples in network byte order and the trailer', () => {
    const bytes = Buffer.from(new BinaryCopyWriter(8).row(3).int4(7).text('hé').null().finish());
    expect(bytes.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    expect(bytes.readInt32BE(11)).toBe(0); // flags
    expect(bytes.readInt32BE(15)).toBe(0); // header extension
    let o = 19;
    expect(bytes.readInt16BE(o)).toBe(3);
    expect(bytes.readInt32BE(o + 2)).toBe(4);
    expect(bytes.readInt32BE(o + 6)).toBe(7);
    expect(bytes.readInt32BE(o + 10)).toBe(3); // 'hé' is 3 bytes of UTF-8
    expect(bytes.subarray(o + 14, o + 17).toString('utf8')).toBe('hé');
    expect(bytes.readInt32BE(o + 17)).toBe(-1);
    o += 21;
    expect(bytes.readInt16BE(o)).toBe(-1);
    expect(bytes.length).toBe(o + 2);
  });

  it('encodes uuid, int8, text[] and pgvector vector/halfvec as their receive functions read them', () => {
    const bytes = Buffer.from(
      new BinaryCopyWriter()
        .row(5)
        .uuid('c0ffee00-0000-4000-8000-00000000002a')
        .int8(2 ** 40)
        .textArray(['a', 'bc'])
        .vector([1, -0.5])
        .halfvec([1, -2, 0.5])
        .finish(),
    );
    let o = 21;
    expect(bytes.readInt32BE(o)).toBe(16);
    expect(bytes.subarray(o + 4, o + 20).toString('hex')).toBe('c0ffee0000004000800000000000002a');
    o += 20;
    expect(bytes.readInt32BE(o)).toBe(8);
    expect(bytes.readBigInt64BE(o + 4)).toBe(2n ** 40n);
    o += 12;
    // text[]: ndim 1, no nulls, element oid 25 (text), length 2, lower bound 1, then the elements.
    expect(bytes.readInt32BE(o)).toBe(20 + 5 + 6);
    expect([4, 8, 12, 16, 20].map((d) => bytes.readInt32BE(o + d))).toEqual([1, 0, 25, 2, 1]);
    expect(bytes.readInt32BE(o + 24)).toBe(1);
    expect(bytes.subarray(o + 28, o + 29).toString()).toBe('a');
    o += 4 + 31;
    // vector: int16 dimension, int16 unused, float4 each.
    expect(bytes.readInt32BE(o)).toBe(4 + 8);
    expect([bytes.readInt16BE(o + 4), bytes.readInt16BE(o + 6)]).toEqual([2, 0]);
    expect([bytes.readFloatBE(o + 8), bytes.readFloatBE(o + 12)]).toEqual([1, -0.5]);
    o += 16;
    // halfvec: int16 dimension, int16 unused, IEEE half each.
    expect(bytes.readInt32BE(o)).toBe(4 + 6);
    expect(bytes.readInt16BE(o + 4)).toBe(3);
    expect([0, 1, 2].map((i) => bytes.readUInt16BE(o + 8 + 2 * i))).toEqual([0x3c00, 0xc000, 0x3800]);
    expect(bytes.readInt16BE(o + 14)).toBe(-1);
  });

  it('grows past its initial buffer', () => {
    const writer = new BinaryCopyWriter(64);
    for (let i = 0; i < 1000; i++) writer.row(1).text('x'.repeat(100));
    expect(writer.rowCount).toBe(1000);
    expect(writer.finish().length).toBe(19 + 1000 * (2 + 4 + 100) + 2);
  });
});
