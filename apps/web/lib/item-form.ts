import type {
  ExpectedSource,
  QuestionBankItem,
  QuestionBankItemInput,
  QuestionDifficulty,
} from '@lumina/shared';

/** The item form's fields as text, the way a person edits them. */
export interface ItemDraft {
  question: string;
  expectedAnswer: string;
  inScope: boolean;
  /** One source a line: a document id (or external id), `chunk:<id>`, optional ` grade=<n>`. */
  sources: string;
  tags: string;
  language: string;
  difficulty: '' | QuestionDifficulty;
}

export const EMPTY_DRAFT: ItemDraft = {
  question: '',
  expectedAnswer: '',
  inScope: true,
  sources: '',
  tags: '',
  language: 'en',
  difficulty: '',
};

export function sourcesToText(sources: readonly ExpectedSource[]): string {
  return sources
    .map((source) => {
      const parts = [source.chunkId ? `chunk:${source.chunkId}` : (source.documentId ?? '')];
      if (source.grade !== undefined && source.grade !== 1) parts.push(`grade=${source.grade}`);
      return parts.join(' ');
    })
    .filter(Boolean)
    .join('\n');
}

/** Reads the sources box; returns the sources or the first line it cannot read. */
export function parseSourcesText(text: string): { sources: ExpectedSource[] } | { error: string } {
  const sources: ExpectedSource[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const [head, ...rest] = line.split(/\s+/);
    const source: ExpectedSource = head.startsWith('chunk:')
      ? { chunkId: head.slice(6) }
      : { documentId: head };
    for (const part of rest) {
      const grade = /^grade=(-?\d+)$/.exec(part);
      if (!grade) return { error: `Line ${index + 1} of the sources: "${part}" is not "grade=<number>".` };
      source.grade = Number(grade[1]);
    }
    if (source.chunkId === '') return { error: `Line ${index + 1} of the sources names no chunk id.` };
    sources.push(source);
  }
  return { sources };
}

export function draftFromItem(item: QuestionBankItem): ItemDraft {
  return {
    question: item.question,
    expectedAnswer: item.expectedAnswer ?? '',
    inScope: item.inScope,
    sources: sourcesToText(item.expectedSources ?? []),
    tags: (item.tags ?? []).join(', '),
    language: item.language || 'en',
    difficulty: item.difficulty ?? '',
  };
}

/** The request body for a draft, or a sentence saying what to fix. */
export function inputFromDraft(draft: ItemDraft): { input: QuestionBankItemInput } | { error: string } {
  if (!draft.question.trim()) return { error: 'Write the question first.' };
  const parsed = parseSourcesText(draft.sources);
  if ('error' in parsed) return parsed;
  return {
    input: {
      question: draft.question.trim(),
      expectedAnswer: draft.expectedAnswer.trim() ? draft.expectedAnswer.trim() : null,
      inScope: draft.inScope,
      expectedSources: parsed.sources,
      tags: draft.tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      language: draft.language.trim() || 'en',
      difficulty: draft.difficulty || null,
    },
  };
}

/** A source the picker adds: a whole document, or one passage of it. */
export type PickedSource = { documentId: string } | { chunkId: string };

function sourceRef(source: PickedSource): string {
  return 'chunkId' in source ? `chunk:${source.chunkId}` : source.documentId;
}

/** The sources box with `source` added as a line, unless a line already names it. */
export function addSourceLine(text: string, source: PickedSource): string {
  const ref = sourceRef(source);
  const lines = text.split('\n').filter((line) => line.trim());
  if (lines.some((line) => line.trim().split(/\s+/)[0] === ref)) return text;
  return [...lines, ref].join('\n');
}

/** The sources box without the line that names `source`. */
export function removeSourceLine(text: string, source: PickedSource): string {
  const ref = sourceRef(source);
  return text
    .split('\n')
    .filter((line) => line.trim() && line.trim().split(/\s+/)[0] !== ref)
    .join('\n');
}

/** Whether a line of the sources box names `source`. */
export function hasSourceLine(text: string, source: PickedSource): boolean {
  const ref = sourceRef(source);
  return text.split('\n').some((line) => line.trim().split(/\s+/)[0] === ref);
}

/** An item the offline template generator wrote that nobody has edited since. */
export function isUnreviewedDraft(
  item: Pick<QuestionBankItem, 'generator' | 'createdAt' | 'updatedAt'>,
): boolean {
  return item.generator === 'template' && item.updatedAt === item.createdAt;
}
