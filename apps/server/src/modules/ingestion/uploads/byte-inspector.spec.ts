import { createHash } from 'node:crypto';
import { ByteInspector } from './byte-inspector';

function inspect(...chunks: Buffer[]) {
  const inspector = new ByteInspector();
  for (const chunk of chunks) inspector.update(chunk);
  return inspector.finish();
}

describe('ByteInspector', () => {
  it('hashes and sizes the bytes however they are split', () => {
    const bytes = Buffer.from('Glaciers move slowly. '.repeat(1000));
    const facts = inspect(bytes.subarray(0, 7), bytes.subarray(7, 9000), bytes.subarray(9000));
    expect(facts.size).toBe(bytes.length);
    expect(facts.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(facts.head).toEqual(bytes.subarray(0, 8192));
    expect(facts.tail).toEqual(bytes.subarray(bytes.length - 8192));
    expect(facts).toMatchObject({ utf8: true, hasNul: false, blank: false });
  });

  it('accepts a multi-byte character split across chunks', () => {
    const bytes = Buffer.from('café ☕ naïve');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ☕
    expect(inspect(bytes.subarray(0, cut), bytes.subarray(cut)).utf8).toBe(true);
  });

  it('flags invalid UTF-8, including a sequence cut off at the end', () => {
    expect(inspect(Buffer.from([0x48, 0x69, 0xff, 0x21])).utf8).toBe(false);
    expect(inspect(Buffer.from([0x48, 0x69, 0xe2, 0x98])).utf8).toBe(false);
  });

  it('flags NUL bytes and blank content', () => {
    expect(inspect(Buffer.from('text\u0000more')).hasNul).toBe(true);
    expect(inspect(Buffer.from(' \n\t \r\n')).blank).toBe(true);
    expect(inspect().blank).toBe(true);
    expect(inspect(Buffer.from('  x ')).blank).toBe(false);
  });
});
