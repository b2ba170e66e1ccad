import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { AnswerabilityQuestion, AnswerabilitySource } from '@lumina/eval';

/**
 * A docs gold set: Markdown documents under `corpus/` (external id = path below it, e.g. "pino/api.md")
 * and `questions.jsonl` with in-scope questions (gold document and verbatim quote) and out-of-scope ones.
 */
export function loadDocsGold(dir: string, split: string): AnswerabilitySource {
  const corpusDir = join(dir, 'corpus');
  const corpus = new Map<string, { id: string; title: string; text: string }>();
  for (const file of markdownFiles(corpusDir)) {
    const id = relative(corpusDir, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const h1 = /^#\s+(\S.*)$/m.exec(text)?.[1]?.trim();
    corpus.set(id, { id, title: h1 ?? id, text });
  }
  const questions: AnswerabilityQuestion[] = [];
  readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      const row = JSON.parse(line) as {
        id: string;
        split: string;
        inScope: boolean;
        question: string;
        document?: string;
        quote?: string;
      };
      if (split !== 'all' && row.split !== split) return;
      if (row.inScope && (!row.document || !corpus.has(row.document))) {
        throw new Error(`questions.jsonl line ${i + 1}: unknown document ${row.document}`);
      }
      questions.push({
        id: row.id,
        text: row.question,
        inScope: row.inScope,
        gold: row.inScope ? [row.document!] : [],
        quote: row.inScope ? (row.quote ?? null) : null,
      });
    });
  return { name: `docs-gold-${split}`, corpus, questions, format: 'markdown' };
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return markdownFiles(path);
      return name.endsWith('.md') ? [path] : [];
    });
}
