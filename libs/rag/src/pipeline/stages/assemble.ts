import type { AnswerabilityVerdict } from '@lumina/shared';
import { answerabilityFeatures, weightedQueryTerms } from '../../answerability/answerability-features';
import { decideAnswerability } from '../../answerability/answerability-model';
import type { FusedItem, RankedList } from '../../fusion/reciprocal-rank-fusion';
import type { ChunkRecord } from '../../ports/chunk-search.port';
import { answerabilityModelOf } from '../search-options';
import type { SearchHit } from '../search-result';
import { reason, round, termEvidenceFor } from './plan';
import type { SearchRun } from './plan';
import type { RerankOutcome } from './rerank';

/** The assemble stage: the top K candidates as hits, with their passage, scores and provenance. */
export function assembleHits(
  run: SearchRun,
  candidates: FusedItem[],
  records: Map<string, ChunkRecord>,
  reranked: RerankOutcome,
  similarity: Map<string, number>,
): SearchHit[] {
  return candidates.slice(0, run.settings.topK).flatMap((item) => {
    const record = records.get(item.id);
    if (!record) return [];
    const explanation = reranked.explanations.get(item.id);
    return [
      {
        chunkId: record.chunkId,
        documentId: record.documentId,
        documentTitle: record.documentTitle,
        externalId: record.externalId,
        headingPath: record.headingPath,
        anchor: record.anchor,
        text: record.text,
        spanStart: record.spanStart,
        spanEnd: record.spanEnd,
        ...(record.pages ? { pages: record.pages } : {}),
        score: reranked.scores.get(item.id) ?? item.score,
        similarity: similarity.get(item.id) ?? null,
        provenance: item.provenance.map((p) => ({ branch: p.list, rank: p.rank, score: p.score })),
        ...(reranked.model
          ? {
              rerank: {
                model: reranked.model,
                ...(explanation ? { contributions: explanation.contributions } : {}),
              },
            }
          : {}),
      },
    ];
  });
}

/**
 * The answerability decision, the last stage: what the index knows of the query's words, against the
 * top passages. Null without a model, without term evidence or without hits; a failure answers, with a
 * warning. Timed into `timings.answerability`.
 */
export async function decideOnHits(
  run: SearchRun,
  results: SearchHit[],
  lists: RankedList[],
): Promise<{ verdict: AnswerabilityVerdict | null; ms: number }> {
  const t0 = run.now();
  const model = answerabilityModelOf(run.opts, run.settings.ranker);
  const { chunks } = run.ports;
  let verdict: AnswerabilityVerdict | null = null;
  if (model && chunks.termEvidence && results.length > 0) {
    try {
      const top = results.slice(0, run.opts.answerabilityPassages);
      const evidence = await termEvidenceFor(
        run,
        top.map((hit) => hit.chunkId),
      );
      const features = answerabilityFeatures({
        evidence,
        passageTexts: top.map((hit) => ({
          text: hit.text,
          context: [hit.documentTitle, ...hit.headingPath].filter(Boolean).join(' › '),
        })),
        branchTops: lists.map((list) => list.items.slice(0, 3).map((item) => item.id)),
        denseSimilarities: topCosine(results[0], lists),
      });
      verdict = decideAnswerability(model, features, weightedQueryTerms(evidence));
    } catch (error) {
      run.warnings.push(
        `The answerability check could not run, so the question is answered: ${reason(error)}`,
      );
    }
  }
  return { verdict, ms: round(run.now() - t0) };
}

/**
 * The best passage's cosine to the question: its similarity when a threshold computed it, else the score
 * the original query's dense list gave it; a passage that list did not reach is at most as close as the
 * list's last. Undefined when no dense list was searched.
 */
export function topCosine(hit: SearchHit, lists: readonly RankedList[]): [number] | undefined {
  if (hit.similarity !== null) return [hit.similarity];
  const dense = lists.find((list) => list.name === 'original:dense');
  const last = dense?.items[dense.items.length - 1];
  if (!dense || !last) return undefined;
  return [dense.items.find((item) => item.id === hit.chunkId)?.score ?? last.score];
}
