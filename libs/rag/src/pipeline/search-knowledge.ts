import { resolveSettings } from '@lumina/shared';
import type { AdaptiveExpansionDecision, AnswerabilityVerdict, SearchSettings } from '@lumina/shared';
import { l2Normalize } from '../dense/l2-normalize';
import { feedbackPseudoDocument, feedbackVariants } from '../expansion/pseudo-relevance-feedback';
import type { HydeGenerator, QueryExpander } from '../expansion/query-expander.port';
import { scoreConfidence } from '../expansion/expansion-policy';
import { answerabilityFeatures, weightedQueryTerms } from '../answerability/answerability-features';
import { decideAnswerability } from '../answerability/answerability-model';
import { withoutFramingWords } from '../answerability/framing-words';
import { reciprocalRankFusion } from '../fusion/reciprocal-rank-fusion';
import type { RankedList } from '../fusion/reciprocal-rank-fusion';
import type { ChunkFilter, ChunkSearch, ScoredChunk } from '../ports/chunk-search.port';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import { toRerankCandidate } from '../rerank/rerank-candidate';
import { isEvidenceReranker } from '../rerank/reranker.port';
import type { AnyReranker, RerankExplanation } from '../rerank/reranker.port';
import { DEFAULT_SEARCH_OPTIONS } from './search-options';
import type { SearchOptions } from './search-options';
import type { ExpansionTrace, HydeTrace, SearchHit, SearchResult } from './search-result';
import { withDeadline } from './with-deadline';

export interface SearchPorts {
  chunks: ChunkSearch;
  embedder: EmbeddingProvider;
  /** LLM query expansion; without it, expansion uses pseudo-relevance feedback. */
  expander?: QueryExpander;
  /** LLM HyDE; without it, the top passages of the original query are the pseudo-document. */
  hyde?: HydeGenerator;
  /** A /v1/rerank endpoint or the LLM (text in, scores out), or the learned reranker (index evidence). */
  reranker?: AnyReranker;
  now?: () => number;
}

type Ranker = SearchSettings['ranker'];

/**
 * The one search used by the API, the chat, the eval CLI and the evaluation jobs. Branches start
 * together: the original query, the expansion variants and the HyDE passage; each branch yields ranked
 * lists (BM25 and/or dense), fused with reciprocal rank fusion and deduplicated by chunk, keeping
 * which branch found what. A failing branch becomes a warning, never a failed search.
 */
export async function searchKnowledge(
  query: string,
  requested: Partial<SearchSettings>,
  ports: SearchPorts,
  options: Partial<SearchOptions> = {},
  signal?: AbortSignal,
): Promise<SearchResult> {
  const settings = resolveSettings(requested);
  const opts: SearchOptions = { ...DEFAULT_SEARCH_OPTIONS, ...options };
  const now = ports.now ?? (() => performance.now());
  const started = now();
  const warnings: string[] = [];
  const perBranch: Record<string, number> = {};
  let llmMs = 0;
  const filter: ChunkFilter = settings.documentIds.length ? { documentIds: settings.documentIds } : {};
  const depth = Math.max(
    settings.candidateK,
    settings.topK,
    settings.ranker === 'hybrid' ? opts.hybridDepth : 0,
  );
  const needsQueryVector = settings.ranker !== 'bm25' || settings.minScore > 0;

  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = now();
    try {
      return await work();
    } finally {
      perBranch[name] = round(now() - t0);
    }
  };
  /** Every LLM call: a deadline, and an abort that reaches the HTTP request (timeout or caller's abort). */
  const llmCall = <T>(label: string, work: (s: AbortSignal) => Promise<T>): Promise<T> =>
    withDeadline(label, opts.llmTimeoutMs, work, signal);
  /** A generation call (expansion, HyDE): timed in perBranch as `llm:<name>`; `llm` is the slowest. */
  const generate = async <T>(name: string, label: string, work: (s: AbortSignal) => Promise<T>) => {
    const t0 = now();
    try {
      return await llmCall(label, work);
    } finally {
      perBranch[`llm:${name}`] = round(now() - t0);
      llmMs = Math.max(llmMs, now() - t0);
    }
  };

  const embedMany = async (texts: string[]): Promise<number[][]> =>
    (await ports.embedder.embed(texts, signal)).map((vector) => l2Normalize(vector));
  const embedOne = async (text: string): Promise<number[]> => (await embedMany([text]))[0];

  /**
   * Which lists a branch searches. A hybrid list with weight 0 cannot change the fused ranking (it only
   * shows up in provenance), so only the original query still searches it; the expansion and HyDE
   * branches, which run after the LLM answers and so add to the wall time, leave it out.
   */
  const weightOf = (ranker: Ranker, list: 'lexical' | 'dense') =>
    ranker === 'hybrid' ? opts.weights[list] : 1;
  const searches = (name: string, ranker: Ranker, list: 'lexical' | 'dense') =>
    (list === 'lexical' ? ranker !== 'dense' : ranker !== 'bm25') &&
    (name === 'original' || weightOf(ranker, list) > 0);

  const rankLists = async (name: string, text: string, ranker: Ranker, vector?: Promise<number[]>) =>
    timed(name, async () => {
      const lists: RankedList[] = [];
      const jobs: Promise<void>[] = [];
      if (searches(name, ranker, 'lexical')) {
        jobs.push(
          ports.chunks.lexical(text, depth, filter).then((items) => {
            lists.push(toList(`${name}:bm25`, items, weightOf(ranker, 'lexical')));
          }),
        );
      }
      if (searches(name, ranker, 'dense')) {
        jobs.push(
          (vector ?? embedOne(text))
            .then((v) => ports.chunks.dense(v, depth, { ...filter, exact: opts.exactDense }))
            .then((items) => {
              lists.push(toList(`${name}:dense`, items, weightOf(ranker, 'dense')));
            }),
        );
      }
      await Promise.all(jobs);
      return lists.sort((a, b) => (a.name < b.name ? -1 : 1));
    });

  // Offline expansion and HyDE feed back from the original query's BM25 hits; the adaptive decision
  // reads the same hits.
  let feedback: Promise<{ chunkId: string; text: string; context: string; score: number }[]> | undefined;
  const feedbackDocs = () =>
    (feedback ??= ports.chunks
      .lexical(query, Math.max(opts.feedbackDocuments, opts.answerabilityPassages), filter)
      .then(async (hits) => {
        const records = await ports.chunks.fetch(hits.map((hit) => hit.chunkId));
        const byId = new Map(records.map((r) => [r.chunkId, r]));
        return hits.flatMap((hit) => {
          const record = byId.get(hit.chunkId);
          if (!record) return [];
          const context = [record.documentTitle, ...record.headingPath].filter(Boolean).join(' › ');
          return [{ chunkId: hit.chunkId, text: record.text, context, score: hit.score }];
        });
      }));
  const feedbackTexts = async () => (await feedbackDocs()).slice(0, opts.feedbackDocuments);

  // Adaptive branches wait for the original query's BM25 hits: where the policy's confidence in them
  // reaches its threshold, those branches (and their LLM calls) are skipped.
  const adaptiveAsked = (['expansion', 'hyde'] as const).filter(
    (branch) => (branch === 'expansion' ? settings.enableQueryExpansion : settings.enableHyDE) === 'adaptive',
  );
  const adaptive = adaptiveAsked.length ? timed('adaptive', () => decideAdaptive(adaptiveAsked)) : undefined;
  async function decideAdaptive(
    asked: readonly ('expansion' | 'hyde')[],
  ): Promise<AdaptiveExpansionDecision> {
    const runAll: AdaptiveExpansionDecision = {
      policyVersion: null,
      confidence: null,
      threshold: null,
      skipped: [],
      ran: [...asked],
      features: {},
      contributions: {},
    };
    const policy = opts.expansionPolicy;
    if (!policy || !ports.chunks.termEvidence) {
      warnings.push('No expansion policy is configured, so the adaptive branches ran.');
      return runAll;
    }
    try {
      const top = (await feedbackDocs()).slice(0, opts.answerabilityPassages);
      if (top.length === 0) return runAll;
      const evidence = await ports.chunks.termEvidence(
        withoutFramingWords(query),
        top.map((hit) => hit.chunkId),
      );
      const features = answerabilityFeatures({ evidence, passageTexts: top });
      const { confidence, contributions } = scoreConfidence(policy, features);
      const skip = confidence >= policy.threshold;
      return {
        policyVersion: policy.version,
        confidence,
        threshold: Number.isFinite(policy.threshold) ? policy.threshold : null,
        skipped: skip ? [...asked] : [],
        ran: skip ? [] : [...asked],
        features: Object.fromEntries(policy.features.map((name) => [name, round6(features[name])])),
        contributions,
      };
    } catch (error) {
      warnings.push(`The adaptive decision could not be taken, so its branches ran: ${reason(error)}`);
      return runAll;
    }
  }
  /** Whether a branch runs: on, off, or (adaptive) as the decision says. */
  const branchRuns = (branch: 'expansion' | 'hyde'): Promise<boolean> => {
    const mode = branch === 'expansion' ? settings.enableQueryExpansion : settings.enableHyDE;
    if (mode !== 'adaptive') return Promise.resolve(mode === true);
    return adaptive!.then((decision) => decision.ran.includes(branch));
  };

  // Everything that does not depend on another branch starts now, the LLM calls first: expansion and
  // HyDE go out together at t = 0 (adaptive ones once the decision is taken), and the original query is
  // searched while they are generated.
  const expansion = branchRuns('expansion').then((run) =>
    !run
      ? null
      : (async (): Promise<ExpansionTrace> => {
          if (ports.expander) {
            const expander = ports.expander;
            const variants = await generate('expansion', 'query expansion', (s) =>
              expander.expand(query, settings.expansionCount, s),
            );
            return {
              source: 'llm',
              model: expander.modelId,
              variants: distinctVariants(query, variants, settings.expansionCount),
            };
          }
          return {
            source: 'prf',
            model: null,
            variants: feedbackVariants(query, await feedbackTexts(), settings.expansionCount),
          };
        })(),
  );
  const hyde = branchRuns('hyde').then((run) =>
    !run
      ? null
      : (async (): Promise<HydeTrace> => {
          if (ports.hyde) {
            const generator = ports.hyde;
            const passage = (await generate('hyde', 'HyDE', (s) => generator.generate(query, s))).trim();
            if (!passage) throw new Error('HyDE returned an empty passage');
            return { source: 'llm', model: generator.modelId, passage };
          }
          return { source: 'prf', model: null, passage: feedbackPseudoDocument(await feedbackTexts()) };
        })(),
  );

  const queryVector = needsQueryVector ? embedOne(query) : undefined;
  queryVector?.catch(() => undefined);
  const original = rankLists('original', query, settings.ranker, queryVector);
  original.catch(() => undefined);

  // Each variant is searched as soon as the variants arrive; their vectors come from one embedding call.
  const variantLists = expansion.then(async (expanded) => {
    if (!expanded) return [];
    const { variants } = expanded;
    const vectors = searches('variant', settings.ranker, 'dense') ? embedMany(variants) : undefined;
    vectors?.catch(() => undefined);
    const searched = await Promise.allSettled(
      variants.map((variant, i) =>
        rankLists(
          `variant-${i + 1}`,
          variant,
          settings.ranker,
          vectors?.then((all) => all[i]),
        ),
      ),
    );
    const failed = searched.flatMap((r, i) =>
      r.status === 'rejected' ? [`variant-${i + 1}: ${reason(r.reason)}`] : [],
    );
    if (failed.length === searched.length) throw new Error(failed.join('; '));
    if (failed.length) warnings.push(`Searching some variants failed: ${failed.join('; ')}`);
    return searched.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  });
  // HyDE is searched densely (and lexically too when the ranker is hybrid or BM25-only).
  const hydeRanker: Ranker =
    settings.ranker === 'dense' ? 'dense' : settings.ranker === 'bm25' ? 'bm25' : 'hybrid';
  const hydeLists = hyde.then((result) =>
    result?.passage ? rankLists('hyde', result.passage, hydeRanker) : [],
  );

  const [originalR, expansionR, variantsR, hydeR, hydeListsR] = await Promise.allSettled([
    original,
    expansion,
    variantLists,
    hyde,
    hydeLists,
  ]);

  const lists: RankedList[] = [];
  if (originalR.status === 'fulfilled') lists.push(...originalR.value);
  else warnings.push(`The original query's search failed: ${reason(originalR.reason)}`);
  if (expansionR.status === 'rejected') warnings.push(`Query expansion failed: ${reason(expansionR.reason)}`);
  else if (expansionR.value && expansionR.value.source === 'llm') {
    const got = expansionR.value.variants.length;
    if (got < settings.expansionCount)
      warnings.push(
        `Query expansion returned ${got} usable variant(s) of the ${settings.expansionCount} asked for.`,
      );
  }
  if (variantsR.status === 'fulfilled') lists.push(...variantsR.value.flat());
  else if (expansionR.status === 'fulfilled')
    warnings.push(`Searching the variants failed: ${reason(variantsR.reason)}`);
  if (hydeR.status === 'rejected') warnings.push(`HyDE failed: ${reason(hydeR.reason)}`);
  if (hydeListsR.status === 'fulfilled') lists.push(...hydeListsR.value);
  else if (hydeR.status === 'fulfilled')
    warnings.push(`Searching the HyDE passage failed: ${reason(hydeListsR.reason)}`);
  if (originalR.status === 'rejected' && lists.length === 0) throw originalR.reason;

  const fuseStart = now();
  const fused = reciprocalRankFusion(lists, { k: opts.rrfK });
  const fuseMs = now() - fuseStart;
  let candidates = fused.slice(0, Math.max(settings.candidateK, settings.topK));
  let scores = new Map(candidates.map((item) => [item.id, item.score]));

  let rerankMs = 0;
  let rerankModel: string | null = null;
  let explanations = new Map<string, RerankExplanation>();
  const records = new Map((await ports.chunks.fetch(candidates.map((c) => c.id))).map((r) => [r.chunkId, r]));
  if (settings.enableRerank) {
    if (!ports.reranker) {
      warnings.push('Reranking was asked for but no reranker is configured; the fused order is kept.');
    } else {
      const reranker = ports.reranker;
      const t0 = now();
      try {
        let reranked: number[];
        if (isEvidenceReranker(reranker)) {
          // The learned reranker reads the index's term statistics for these candidates; no model call.
          if (!ports.chunks.rerankEvidence)
            throw new Error('this index cannot give the learned reranker its evidence');
          const evidence = await ports.chunks.rerankEvidence(
            query,
            candidates.map((c) => c.id),
          );
          const explained = reranker.rerankWithEvidence({
            query,
            evidence,
            candidates: candidates.map((c, i) =>
              toRerankCandidate(
                c.id,
                records.get(c.id),
                i + 1,
                c.provenance.map((p) => ({ branch: p.list, rank: p.rank, score: p.score })),
              ),
            ),
          });
          explanations = new Map(candidates.map((c, i) => [c.id, explained[i]]));
          reranked = explained.map((e) => e.score);
        } else {
          const passages = candidates.map((c) => records.get(c.id)?.text ?? '');
          reranked = await llmCall('rerank', (s) => reranker.rerank(query, passages, s));
        }
        if (reranked.length !== candidates.length || reranked.some((v) => !Number.isFinite(v))) {
          throw new Error(
            `the reranker returned ${reranked.length} scores for ${candidates.length} passages`,
          );
        }
        scores = new Map(candidates.map((c, i) => [c.id, reranked[i]]));
        candidates = [...candidates].sort(
          (a, b) => scores.get(b.id)! - scores.get(a.id)! || (a.id < b.id ? -1 : 1),
        );
        rerankModel = reranker.modelId;
      } catch (error) {
        explanations = new Map();
        warnings.push(`Reranking failed, the fused order is kept: ${reason(error)}`);
      }
      rerankMs = now() - t0;
    }
  }

  let similarity = new Map<string, number>();
  if (settings.minScore > 0) {
    try {
      similarity = await ports.chunks.similarity(
        candidates.map((c) => c.id),
        await queryVector!,
      );
      candidates = candidates.filter((c) => (similarity.get(c.id) ?? -1) >= settings.minScore);
    } catch (error) {
      warnings.push(`The similarity threshold could not be applied: ${reason(error)}`);
    }
  }

  const results: SearchHit[] = candidates.slice(0, settings.topK).flatMap((item) => {
    const record = records.get(item.id);
    if (!record) return [];
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
        score: scores.get(item.id) ?? item.score,
        similarity: similarity.get(item.id) ?? null,
        provenance: item.provenance.map((p) => ({ branch: p.list, rank: p.rank, score: p.score })),
        ...(rerankModel
          ? {
              rerank: {
                model: rerankModel,
                ...(explanations.has(item.id)
                  ? { contributions: explanations.get(item.id)!.contributions }
                  : {}),
              },
            }
          : {}),
      },
    ];
  });

  // The answerability decision: what the index knows of the query's words, against the top passages.
  const answerabilityStart = now();
  let answerability: AnswerabilityVerdict | null = null;
  if (opts.answerabilityModel && ports.chunks.termEvidence && results.length > 0) {
    try {
      const top = results.slice(0, opts.answerabilityPassages).map((hit) => hit.chunkId);
      // Read without the words that only ask for a form of answer ("explain … step by step").
      const evidence = await ports.chunks.termEvidence(withoutFramingWords(query), top);
      const features = answerabilityFeatures({
        evidence,
        passageTexts: results.slice(0, opts.answerabilityPassages).map((hit) => ({
          text: hit.text,
          context: [hit.documentTitle, ...hit.headingPath].filter(Boolean).join(' › '),
        })),
        branchTops: lists.map((list) => list.items.slice(0, 3).map((item) => item.id)),
        denseSimilarities: results[0].similarity === null ? undefined : [results[0].similarity],
      });
      answerability = decideAnswerability(opts.answerabilityModel, features, weightedQueryTerms(evidence));
    } catch (error) {
      warnings.push(`The answerability check could not run, so the question is answered: ${reason(error)}`);
    }
  }

  return {
    query,
    settings,
    results,
    expansions: expansionR.status === 'fulfilled' ? expansionR.value : null,
    hyde: hydeR.status === 'fulfilled' ? hydeR.value : null,
    adaptive: adaptive ? await adaptive : null,
    belowThreshold: settings.minScore > 0 && results.length === 0 && fused.length > 0,
    answerability,
    timings: {
      total: round(now() - started),
      perBranch,
      llm: round(llmMs),
      fuse: round(fuseMs),
      rerank: round(rerankMs),
      answerability: round(now() - answerabilityStart),
    },
    warnings,
  };
}

function toList(name: string, items: ScoredChunk[], weight: number): RankedList {
  return { name, weight, items: items.map((item) => ({ id: item.chunkId, score: item.score })) };
}

/** Keep the first `count` distinct, non-empty variants that differ from the query itself. */
function distinctVariants(query: string, variants: string[], count: number): string[] {
  const seen = new Set([normalise(query)]);
  const kept: string[] = [];
  for (const variant of variants) {
    const key = normalise(variant);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    kept.push(variant.trim());
    if (kept.length === count) break;
  }
  if (kept.length === 0) throw new Error('the model returned no usable query variants');
  return kept;
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
