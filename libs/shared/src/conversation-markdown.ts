import type { Citation, ConversationMessage } from './chat';

/** What the Markdown export needs of a conversation. */
export interface ExportedConversation {
  title: string;
  createdAt: string;
  messages: readonly Pick<
    ConversationMessage,
    'role' | 'content' | 'status' | 'source' | 'notFound' | 'citations' | 'error'
  >[];
}

/**
 * A conversation as a Markdown document: each question and answer in order, each answer followed by its
 * sources (marker, document title, heading path, pages), so the `[n]` markers in the text still resolve.
 */
export function conversationMarkdown(conversation: ExportedConversation): string {
  const lines = [`# ${oneLine(conversation.title)}`, '', `_Conversation started ${conversation.createdAt}_`];
  for (const message of conversation.messages) {
    lines.push(
      '',
      message.role === 'user' ? '## Question' : '## Answer',
      '',
      message.content.trim() || '_(empty)_',
    );
    if (message.role !== 'assistant') continue;
    if (message.source === 'general-knowledge') {
      lines.push('', '_From the model’s general knowledge, not from the documents._');
    }
    if (message.status !== 'complete') {
      lines.push(
        '',
        `_The answer is incomplete (${message.status})${message.error ? `: ${message.error}` : ''}._`,
      );
    }
    const sources = sourceLines(message.citations);
    if (sources.length) lines.push('', SOURCES_HEADING, '', ...sources);
  }
  return `${lines.join('\n')}\n`;
}

/** "Title › Heading › Subheading (pp. 3–4)". */
export function sourceLabel(citation: Pick<Citation, 'title' | 'headingPath' | 'pages'>): string {
  // A document's own H1 often repeats its title: name it once.
  const headings =
    citation.headingPath[0] === citation.title ? citation.headingPath.slice(1) : citation.headingPath;
  const path = [citation.title, ...headings].map(oneLine).filter(Boolean).join(' › ');
  const pages = citation.pages
    ? citation.pages.first === citation.pages.last
      ? ` (p. ${citation.pages.first})`
      : ` (pp. ${citation.pages.first}–${citation.pages.last})`
    : '';
  return `${path}${pages}`;
}

/** A file name for the export: the title's words, lower-case, joined by dashes. */
export function exportFileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'conversation'}.md`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The line before the sources list at the end of an answer's content. */
export const SOURCES_HEADING = '**Sources**';

/**
 * The sources list written after an answer ('' without citations): the OpenAI endpoint's content, the
 * web app's Copy and the Markdown export all use it, so an answer reads the same wherever it is pasted:
 * `**Sources**`, then `- [n] Title › heading path (p. 3)`, each marker once.
 */
export function sourcesBlock(
  citations: readonly Pick<Citation, 'marker' | 'title' | 'headingPath' | 'pages'>[],
): string {
  const lines = sourceLines(citations);
  return lines.length === 0 ? '' : `\n\n${SOURCES_HEADING}\n\n${lines.join('\n')}`;
}

/** `- [n] Title › heading path (p. 3)` per marker, in marker order, each marker once. */
export function sourceLines(
  citations: readonly Pick<Citation, 'marker' | 'title' | 'headingPath' | 'pages'>[],
): string[] {
  const seen = new Set<number>();
  return [...citations]
    .sort((a, b) => a.marker - b.marker)
    .filter((citation) => !seen.has(citation.marker) && seen.add(citation.marker))
    .map((citation) => `- [${citation.marker}] ${sourceLabel(citation)}`);
}
