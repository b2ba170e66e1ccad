import type { FusedItem } from '../../fusion/reciprocal-rank-fusion';
import type { ChunkRecord } from '../../ports/chunk-search.port';
import { toRerankCandidate } from '../../rerank/rerank-candidate';
import { isEvidenceReranker } from '../../rerank/reranker.port';
import type { RerankExplanation } from '../../rerank/reranker.port';
import { llmCall, reason } from './plan';
import type { SearchRun } from './plan';

/** The rerank stage's outcome: the candidates in their final order, each one's score, which reranker
 *  ordered them (null: the fused order was kept) and, for the learned reranker, why. */
export interface RerankOutcome {
  candidates: FusedItem[];
  scores: Map<string, number>;
  model: string | null;
  explanations: Map<string, RerankExplanation>;
  ms: number;
}

/**
 * The rerank stage: with `enableRerank`, the configured reranker re-scores the fused candidates (the
 * learned one from the index's evidence, without a model call; the others from the texts, under the LLM
 * deadline). Any failure keeps the fused order, with a warning.
 */
export async function rerank(
  run: SearchRun,
  fused: FusedItem[],
  records: Map<string, ChunkRecord>,
  queryVector?: Promise<number[]>,
): Promise<RerankOutcome> {
  const kept: RerankOutcome = {
    candidates: fused,
    scores: new Map(fused.map((item) => [item.id, item.score])),
    model: null,
    explanations: new Map(),
    ms: 0,
  };
  if (!run.settings.enableRerank) return kept;
  const { reranker, chunks } = run.ports;
  if (!reranker) {
    run.warnings.push('Reranking was asked for but no reranker is configured; the fused order is kept.');
    return kept;
  }
  const t0 = run.now();
  try {
    let reranked: number[];
    let explanations = new Map<string, RerankExplanation>();
    if (isEvidenceReranker(reranker)) {
      // The learned reranker reads the index's term statistics for these candidates; no model call.
      if (!chunks.rerankEvidence) throw new Error('this index cannot give the learned reranker its evidence');
      const ids = fused.map((c) => c.id);
      const [evidence, cosines] = await Promise.all([
        chunks.rerankEvidence(run.query, ids, run.filter),
        reranker.needsQueryVector ? queryCosines(run, ids, queryVector) : null,
      ]);
      if (cosines) {
        evidence.passages = evidence.passages.map((p) => ({ ...p, cosine: cosines.get(p.chunkId) ?? null }));
      }
      const explained = reranker.rerankWithEvidence({
        query: run.query,
        evidence,
        candidates: fused.map((c, i) =>
          toRerankCandidate(
            c.id,
            records.get(c.id),
            i + 1,
            c.provenance.map((p) => ({ branch: p.list, rank: p.rank, score: p.score })),
          ),
        ),
      });
      explanations = new Map(fused.map((c, i) => [c.id, explained[i]]));
      reranked = explained.map((e) => e.score);
    } else {
      const passages = fused.map((c) => records.get(c.id)?.text ?? '');
      reranked = await llmCall(run, 'rerank', (s) => reranker.rerank(run.query, passages, s));
    }
    if (reranked.length !== fused.length || reranked.some((v) => !Number.isFinite(v))) {
      throw new Error(`the reranker returned ${reranked.length} scores for ${fused.length} passages`);
    }
    const scores = new Map(fused.map((c, i) => [c.id, reranked[i]]));
    return {
      candidates: [...fused].sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || (a.id < b.id ? -1 : 1)),
      scores,
      model: reranker.modelId,
      explanations,
      ms: run.now() - t0,
    };
  } catch (error) {
    run.warnings.push(`Reranking failed, the fused order is kept: ${reason(error)}`);
    return { ...kept, ms: run.now() - t0 };
  }
}

/**
 * Each candidate's cosine to the query, for a reranker that weighs it; null (with a warning) when the
 * query could not be embedded, so the reranker still runs on its other features.
 */
async function queryCosines(
  run: SearchRun,
  ids: string[],
  queryVector: Promise<number[]> | undefined,
): Promise<Map<string, number> | null> {
  if (!queryVector) {
    run.warnings.push("Reranking without the query's similarity: the query was not embedded.");
    return null;
  }
  try {
    return await run.ports.chunks.similarity(ids, await queryVector);
  } catch (error) {
    run.warnings.push(`Reranking without the query's similarity: ${reason(error)}`);
    return null;
  }
}
