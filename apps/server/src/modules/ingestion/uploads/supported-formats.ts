import { extname } from 'node:path';

/** What a stored document's file holds; picks its parser. `beir-entry` is one entry of an uploaded corpus. */
export type SourceFormat = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'beir-entry';

/** What an uploaded file is. Corpora (json, jsonl) are split into one document per entry at upload. */
export type UploadKind = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'json' | 'jsonl';

export interface UploadFormat {
  kind: UploadKind;
  label: string;
  extensions: readonly string[];
  mimeTypes: readonly string[];
  /** Must be UTF-8 text (checked while the file streams to disk). */
  text: boolean;
  /** A BEIR-style corpus: every entry becomes its own document. */
  corpus: boolean;
}

export const UPLOAD_FORMATS: readonly UploadFormat[] = [
  {
    kind: 'txt',
    label: 'plain text',
    extensions: ['.txt', '.text'],
    mimeTypes: ['text/plain'],
    text: true,
    corpus: false,
  },
  {
    kind: 'md',
    label: 'Markdown',
    extensions: ['.md', '.markdown'],
    mimeTypes: ['text/markdown', 'text/x-markdown'],
    text: true,
    corpus: false,
  },
  {
    kind: 'html',
    label: 'HTML',
    extensions: ['.html', '.htm'],
    mimeTypes: ['text/html'],
    text: true,
    corpus: false,
  },
  {
    kind: 'pdf',
    label: 'PDF (text layer)',
    extensions: ['.pdf'],
    mimeTypes: ['application/pdf'],
    text: false,
    corpus: false,
  },
  {
    kind: 'docx',
    label: 'Word',
    extensions: ['.docx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    text: false,
    corpus: false,
  },
  {
    kind: 'jsonl',
    label: 'BEIR corpus, one {_id, title, text} per line',
    extensions: ['.jsonl', '.ndjson'],
    mimeTypes: ['application/jsonl', 'application/x-ndjson', 'application/x-jsonlines'],
    text: true,
    corpus: true,
  },
  {
    kind: 'json',
    label: 'BEIR corpus, an array of {_id, title, text}',
    extensions: ['.json'],
    mimeTypes: ['application/json'],
    text: true,
    corpus: true,
  },
];

/** "… .txt, .md, …": the list a 415 answer names. */
export const SUPPORTED_EXTENSIONS = UPLOAD_FORMATS.flatMap((format) => format.extensions);

/** The format of an upload, by its extension, else by its declared media type; undefined when unsupported. */
export function detectUploadFormat(fileName: string, mimeType?: string): UploadFormat | undefined {
  const extension = extname(fileName).toLowerCase();
  if (extension) return UPLOAD_FORMATS.find((format) => format.extensions.includes(extension));
  const type = (mimeType ?? '').split(';')[0].trim().toLowerCase();
  return UPLOAD_FORMATS.find((format) => format.mimeTypes.includes(type));
}

/** The message of a 415: what was sent and what is accepted. */
export function unsupportedFormatMessage(fileName: string): string {
  return (
    `"${fileName}" is not a supported document type. ` +
    `Supported: ${UPLOAD_FORMATS.map((format) => `${format.extensions.join('/')} (${format.label})`).join(', ')}.`
  );
}
