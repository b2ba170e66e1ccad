import { inflateRawSync } from 'node:zlib';
import { UnreadableDocumentError } from '../../errors/unreadable-document.error';

/** Bounds on what a zip container (.docx) may unpack to before anything parses its parts. */
export interface ZipLimits {
  maxEntries: number;
  /** Decompressed bytes of the parts that are read, all together. */
  maxUnpackedBytes: number;
}

export const DOCX_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: 2000,
  maxUnpackedBytes: 64 * 1024 * 1024,
});

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

/**
 * Unpacks the entries of a zip archive that `wanted` selects, refusing, before inflating anything, an
 * archive with more entries than allowed or whose declared sizes exceed the budget, and stopping any
 * entry whose real output runs past it (a zip bomb lies about its sizes). Entries not wanted (images)
 * are never inflated. Linear in the archive's size.
 */
export function unpackZip(
  bytes: Buffer,
  name: string,
  wanted: (entry: string) => boolean,
  limits: ZipLimits = DOCX_ZIP_LIMITS,
): Map<string, Buffer> {
  const fail = (reason: string): never => {
    throw new UnreadableDocumentError(`"${name}" could not be read as a Word (.docx) document: ${reason}.`);
  };
  const entries = centralDirectory(bytes, fail);
  if (entries.length > limits.maxEntries) {
    fail(`the archive holds ${entries.length} entries, more than the ${limits.maxEntries} allowed`);
  }
  const selected = entries.filter((entry) => wanted(entry.name));
  const declared = selected.reduce((sum, entry) => sum + entry.declaredSize, 0);
  const limitMb = Math.round(limits.maxUnpackedBytes / (1024 * 1024));
  const tooBig = () =>
    fail(
      `its text parts unpack to more than ${limitMb} MB (a compressed archive that expands this much is refused)`,
    );
  if (declared > limits.maxUnpackedBytes) tooBig();

  const parts = new Map<string, Buffer>();
  let budget = limits.maxUnpackedBytes;
  for (const entry of selected) {
    const start = entry.localOffset;
    if (start + 30 > bytes.length || bytes.readUInt32LE(start) !== LOCAL)
      fail(`the entry "${entry.name}" is damaged`);
    const dataStart = start + 30 + bytes.readUInt16LE(start + 26) + bytes.readUInt16LE(start + 28);
    const data = bytes.subarray(dataStart, dataStart + entry.compressedSize);
    if (data.length !== entry.compressedSize) fail(`the entry "${entry.name}" is cut off`);
    let content: Buffer;
    if (entry.method === 0) {
      content = Buffer.from(data);
    } else if (entry.method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: Math.max(budget, 1) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') tooBig();
        fail(`the entry "${entry.name}" does not decompress (${(error as Error).message})`);
      }
    } else {
      fail(`the entry "${entry.name}" uses an unsupported compression method (${entry.method})`);
    }
    budget -= content!.length;
    if (budget < 0) tooBig();
    parts.set(entry.name, content!);
  }
  return parts;
}

function centralDirectory(bytes: Buffer, fail: (reason: string) => never): Entry[] {
  // The end-of-central-directory record sits in the last 22 + 65,535 (comment) bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) fail('it is not a zip archive (a .docx file is one)');
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) fail('ZIP64 archives are not supported');
  if (offset + size > bytes.length) fail('its table of contents is damaged or cut off');
  const entries: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL)
      fail('its table of contents is damaged');
    const nameLength = bytes.readUInt16LE(at + 28);
    entries.push({
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      declaredSize: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}
