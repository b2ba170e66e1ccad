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
      const evidence = await chunks.rerankEvidence(
        run.query,
        fused.map((c) => c.id),
      );
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
