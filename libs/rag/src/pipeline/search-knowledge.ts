import type { SearchSettings } from '@lumina/shared';
import { convexScoreFusion, reciprocalRankFusion } from '../fusion/reciprocal-rank-fusion';
import type { RankedList } from '../fusion/reciprocal-rank-fusion';
import type { ChunkRecord } from '../ports/chunk-search.port';
import type { SearchOptions } from './search-options';
import type { SearchPorts } from './search-ports';
import type { SearchResult } from './search-result';
import { decideOnHits, assembleHits } from './stages/assemble';
import { runBranches } from './stages/branches';
import { planSearch, round, routeLanguage } from './stages/plan';
import { rerank } from './stages/rerank';
import { applyThreshold } from './stages/threshold';

export type { SearchPorts } from './search-ports';

/** The original query's branch: its lists are named `original:bm25` and `original:dense`. */
const ORIGINAL_BRANCH = 'original';

/**
 * The one search used by the API, the chat, the eval CLI and the evaluation jobs, as a conductor over
 * named stages (`stages/`): plan (settings, depth, filter), branches (the original query, the expansion
 * variants and the HyDE passage start together, adaptive ones once decided; each yields ranked lists,
 * and a failing branch becomes a warning), fuse (reciprocal rank fusion, deduplicated by chunk, keeping
 * which branch found what), rerank, threshold, and assemble (the hits, then the answerability decision,
 * taken on the original query's own ranking).
 */
export async function searchKnowledge(
  query: string,
  requested: Partial<SearchSettings>,
  ports: SearchPorts,
  options: Partial<SearchOptions> = {},
  signal?: AbortSignal,
): Promise<SearchResult> {
  const run = await routeLanguage(planSearch(query, requested, ports, options, signal));
  const { settings, now } = run;
  const branches = await runBranches(run);
  const records = new Map<string, ChunkRecord>();

  /** Fuse these lists, then rerank, threshold and assemble the top K hits. */
  const rank = async (lists: RankedList[]) => {
    const fuseStart = now();
    const fused =
      run.opts.fusion === 'convex'
        ? convexScoreFusion(lists, { weightedOnly: true })
        : reciprocalRankFusion(lists, { k: run.opts.rrfK, weightedOnly: true });
    const fuseMs = now() - fuseStart;
    const pool = fused.slice(0, Math.max(settings.candidateK, settings.topK));
    const missing = pool.map((c) => c.id).filter((id) => !records.has(id));
    if (missing.length > 0) for (const r of await ports.chunks.fetch(missing)) records.set(r.chunkId, r);
    const reranked = await rerank(run, pool, records, branches.queryVector);
    const kept = await applyThreshold(run, reranked.candidates, branches.queryVector);
    const hits = assembleHits(run, kept.candidates, records, reranked, kept.similarity);
    return { hits, fused: fused.length, fuseMs, rerankMs: reranked.ms };
  };

  const ranked = await rank(branches.lists);
  const results = ranked.hits;
  // The answerability decision reads the original query's own evidence, ranked as the search would rank
  // it with expansion and HyDE off: they may reorder the passages, never make a question answerable that
  // is not on its own (nor the reverse). With a reranker on, the reranked hits that the original query
  // found stand for it, in the reranker's order: ranking them again would cost a second reranker call
  // (an LLM's) per question. Only when the original query's search failed does it read what the other
  // branches found.
  const original = branches.lists.filter((list) => list.name.startsWith(`${ORIGINAL_BRANCH}:`));
  const foundByOriginal = (hit: SearchResult['results'][number]): boolean =>
    hit.provenance.some((p) => p.branch.startsWith(`${ORIGINAL_BRANCH}:`));
  const ownEvidence =
    original.length === 0 || original.length === branches.lists.length
      ? { hits: results, lists: branches.lists }
      : settings.enableRerank
        ? { hits: results.filter(foundByOriginal), lists: original }
        : { hits: (await rank(original)).hits, lists: original };
  const answerability = await decideOnHits(run, ownEvidence.hits, ownEvidence.lists);

  return {
    query,
    settings,
    collectionIds: run.opts.collectionIds ? [...run.opts.collectionIds] : [],
    results,
    expansions: branches.expansions,
    hyde: branches.hyde,
    adaptive: branches.adaptive,
    belowThreshold: settings.minScore > 0 && results.length === 0 && ranked.fused > 0,
    answerability: answerability.verdict,
    timings: {
      total: round(now() - run.started),
      perBranch: run.perBranch,
      llm: round(run.llm.ms),
      fuse: round(ranked.fuseMs),
      rerank: round(ranked.rerankMs),
      answerability: answerability.ms,
    },
    // The original query's own ranking may repeat a rerank or threshold warning.
    warnings: [...new Set(run.warnings)],
    ...(ports.languages ? { language: run.language } : {}),
  };
}
