import type { SearchSettings } from '@lumina/shared';
import { reciprocalRankFusion } from '../fusion/reciprocal-rank-fusion';
import type { SearchOptions } from './search-options';
import type { SearchPorts } from './search-ports';
import type { SearchResult } from './search-result';
import { decideOnHits, assembleHits } from './stages/assemble';
import { runBranches } from './stages/branches';
import { planSearch, round } from './stages/plan';
import { rerank } from './stages/rerank';
import { applyThreshold } from './stages/threshold';

export type { SearchPorts } from './search-ports';

/**
 * The one search used by the API, the chat, the eval CLI and the evaluation jobs, as a conductor over
 * named stages (`stages/`): plan (settings, depth, filter), branches (the original query, the expansion
 * variants and the HyDE passage start together, adaptive ones once decided; each yields ranked lists,
 * and a failing branch becomes a warning), fuse (reciprocal rank fusion, deduplicated by chunk, keeping
 * which branch found what), rerank, threshold, and assemble (the hits, then the answerability decision).
 */
export async function searchKnowledge(
  query: string,
  requested: Partial<SearchSettings>,
  ports: SearchPorts,
  options: Partial<SearchOptions> = {},
  signal?: AbortSignal,
): Promise<SearchResult> {
  const run = planSearch(query, requested, ports, options, signal);
  const { settings, now } = run;
  const branches = await runBranches(run);

  const fuseStart = now();
  const fused = reciprocalRankFusion(branches.lists, { k: run.opts.rrfK });
  const fuseMs = now() - fuseStart;
  const pool = fused.slice(0, Math.max(settings.candidateK, settings.topK));
  const records = new Map((await ports.chunks.fetch(pool.map((c) => c.id))).map((r) => [r.chunkId, r]));

  const reranked = await rerank(run, pool, records, branches.queryVector);
  const kept = await applyThreshold(run, reranked.candidates, branches.queryVector);
  const results = assembleHits(run, kept.candidates, records, reranked, kept.similarity);
  const answerability = await decideOnHits(run, results, branches.lists);

  return {
    query,
    settings,
    results,
    expansions: branches.expansions,
    hyde: branches.hyde,
    adaptive: branches.adaptive,
    belowThreshold: settings.minScore > 0 && results.length === 0 && fused.length > 0,
    answerability: answerability.verdict,
    timings: {
      total: round(now() - run.started),
      perBranch: run.perBranch,
      llm: round(run.llm.ms),
      fuse: round(fuseMs),
      rerank: round(reranked.ms),
      answerability: answerability.ms,
    },
    warnings: run.warnings,
  };
}
