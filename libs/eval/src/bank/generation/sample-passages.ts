import { createHash } from 'node:crypto';
import { mulberry32 } from '../../stats/mulberry32';

export interface PassageCandidate {
  chunkId: string;
  documentId: string;
  ordinal: number;
  text: string;
}

/** Passages shorter than this many words make poor questions and are drawn only when nothing else is left. */
export const MIN_PASSAGE_WORDS = 8;

/**
 * Draws up to `count` distinct passages, deterministically for a given seed: each document's passages
 * are shuffled with a seeded generator, then documents are visited round-robin (in id order) so every
 * document contributes before any contributes twice. Short passages come last.
 */
export function samplePassages<T extends PassageCandidate>(
  candidates: readonly T[],
  count: number,
  seed: string,
): T[] {
  const random = mulberry32(seedNumber(seed));
  const byDocument = new Map<string, T[]>();
  const sorted = [...candidates].sort((a, b) =>
    a.documentId === b.documentId ? a.ordinal - b.ordinal : a.documentId < b.documentId ? -1 : 1,
  );
  for (const candidate of sorted) {
    const list = byDocument.get(candidate.documentId) ?? [];
    list.push(candidate);
    byDocument.set(candidate.documentId, list);
  }
  const queues = [...byDocument.values()].map((list) => {
    const shuffled = shuffle(list, random);
    return [
      ...shuffled.filter((c) => wordCount(c.text) >= MIN_PASSAGE_WORDS),
      ...shuffled.filter((c) => wordCount(c.text) < MIN_PASSAGE_WORDS),
    ];
  });
  const drawn: T[] = [];
  let round = 0;
  while (drawn.length < count && queues.some((queue) => queue.length > round)) {
    for (const queue of queues) {
      if (drawn.length === count) break;
      if (queue.length > round) drawn.push(queue[round]);
    }
    round++;
  }
  return drawn;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function seedNumber(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
