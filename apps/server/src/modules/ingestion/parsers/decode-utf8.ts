import { UnreadableDocumentError } from '../errors/unreadable-document.error';

/** UTF-8 bytes → text without a byte-order mark and with \n line ends; anything else is unreadable. */
export function decodeUtf8(bytes: Buffer, name: string): string {
  if (bytes.includes(0)) {
    throw new UnreadableDocumentError(`"${name}" is not text: it holds binary data (NUL bytes).`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UnreadableDocumentError(
      `"${name}" is not valid UTF-8 text. Save it with the UTF-8 encoding and upload it again.`,
    );
  }
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
