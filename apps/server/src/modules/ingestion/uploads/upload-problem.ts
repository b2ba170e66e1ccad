import type { ByteFacts } from './byte-inspector';
import type { UploadFormat } from './supported-formats';

const PDF_MAGIC = Buffer.from('%PDF-');
const PDF_END = Buffer.from('%%EOF');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/**
 * Why an upload can never be indexed, when that shows in the bytes cheaply (checked while it streamed
 * in): a sentence a person understands, or null. Deeper problems (a PDF broken inside) surface in the
 * job, as a `failed` status with the reason.
 */
export function findUploadProblem(name: string, format: UploadFormat, facts: ByteFacts): string | null {
  const file = `"${name}"`;
  if (facts.size === 0) return `${file} is empty (0 bytes).`;
  if (format.text) {
    if (facts.hasNul) {
      return `${file} is not text: it holds binary data (NUL bytes). Text must be saved as UTF-8.`;
    }
    if (!facts.utf8) {
      return `${file} is not valid UTF-8 text. Save it with the UTF-8 encoding and upload it again.`;
    }
    if (facts.blank) return `${file} holds no text, only whitespace.`;
    return null;
  }
  if (format.kind === 'pdf') {
    // The header may follow a little junk (the PDF standard allows it within the first 1024 bytes).
    if (!facts.head.subarray(0, 1024).includes(PDF_MAGIC)) {
      return `${file} is not a PDF file (it does not start with the %PDF- header).`;
    }
    if (!facts.tail.subarray(-1024).includes(PDF_END)) {
      return `${file} is incomplete: it ends before the PDF end-of-file marker (it was probably cut off while being copied or downloaded).`;
    }
  }
  if (format.kind === 'docx') {
    if (!facts.head.subarray(0, 4).equals(ZIP_MAGIC)) {
      return `${file} is not a Word (.docx) document (a .docx file is a ZIP package, and this is not one).`;
    }
    if (!facts.tail.includes(ZIP_END_OF_DIRECTORY)) {
      return `${file} is incomplete: the end of its ZIP package is missing (it was probably cut off while being copied or downloaded).`;
    }
  }
  return null;
}
