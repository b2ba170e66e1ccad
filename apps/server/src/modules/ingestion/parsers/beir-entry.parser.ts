import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { DocumentParser, ParsedText } from './document-parser';

/** One entry of an uploaded BEIR corpus, stored as {"title", "text"} at upload; plain text. */
export class BeirEntryParser implements DocumentParser {
  readonly format = 'beir-entry' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    let entry: { title?: unknown; text?: unknown };
    try {
      entry = JSON.parse(bytes.toString('utf8')) as typeof entry;
    } catch {
      throw new UnreadableDocumentError(`The stored entry of "${name}" is damaged; upload the corpus again.`);
    }
    return { text: typeof entry.text === 'string' ? entry.text : '', format: 'plain' };
  }
}
