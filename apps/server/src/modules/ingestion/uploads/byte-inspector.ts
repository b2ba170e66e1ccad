import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';

/** What is learnt about a file's bytes while they stream past, without holding them. */
export interface ByteFacts {
  size: number;
  /** sha256 of the bytes, hex: the document's identity. */
  sha256: string;
  /** The first bytes (for magic numbers such as %PDF- or a ZIP header). */
  head: Buffer;
  /** The last bytes (for end markers such as %%EOF or a ZIP directory). */
  tail: Buffer;
  /** Every byte sequence is valid UTF-8. */
  utf8: boolean;
  /** Holds a NUL byte: binary data (or UTF-16), not UTF-8 text. */
  hasNul: boolean;
  /** Nothing but whitespace (or nothing at all). */
  blank: boolean;
}

const EDGE_BYTES = 8 * 1024;
const WHITESPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);

/** Feed chunks in order with `update`, then read the facts with `finish`. */
export class ByteInspector {
  private readonly hash: Hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private size = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private utf8 = true;
  private hasNul = false;
  private blank = true;

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.head.length < EDGE_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, EDGE_BYTES - this.head.length)]);
    }
    if (chunk.length >= EDGE_BYTES) {
      this.tail = Buffer.from(chunk.subarray(chunk.length - EDGE_BYTES));
    } else {
      const joined = Buffer.concat([this.tail, chunk]);
      this.tail = joined.length > EDGE_BYTES ? joined.subarray(joined.length - EDGE_BYTES) : joined;
    }
    if (!this.hasNul && chunk.includes(0)) this.hasNul = true;
    if (this.blank && !chunk.every((byte) => WHITESPACE.has(byte))) this.blank = false;
    if (this.utf8) {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.utf8 = false;
      }
    }
  }

  finish(): ByteFacts {
    if (this.utf8) {
      try {
        this.decoder.decode(); // a multi-byte sequence cut off at the end is invalid too
      } catch {
        this.utf8 = false;
      }
    }
    return {
      size: this.size,
      sha256: this.hash.digest('hex'),
      head: this.head,
      tail: Buffer.from(this.tail),
      utf8: this.utf8,
      hasNul: this.hasNul,
      blank: this.blank,
    };
  }
}
