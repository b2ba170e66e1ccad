import type { AdaptiveExpansionDecision } from '@lumina/shared';
import { answerabilityFeatures } from '../../answerability/answerability-features';
import { scoreConfidence } from '../../expansion/expansion-policy';
import { feedbackPseudoDocument, feedbackVariants } from '../../expansion/pseudo-relevance-feedback';
import type { RankedList } from '../../fusion/reciprocal-rank-fusion';
import type { ExpansionTrace, HydeTrace } from '../search-result';
import { embedMany, generate, rankLists, reason, round6, searches, termEvidenceFor, timed } from './plan';
import type { Ranker, SearchRun } from './plan';

type Branch = 'expansion' | 'hyde';

interface FeedbackHit {
  chunkId: string;
  text: string;
  context: string;
  score: number;
}

/** What the branches stage hands on: every ranked list, and the traces of expansion, HyDE and the
 *  adaptive decision; failures are already warnings. */
export interface BranchesOutcome {
  lists: RankedList[];
  expansions: ExpansionTrace | null;
  hyde: HydeTrace | null;
  adaptive: AdaptiveExpansionDecision | null;
  /** The query's vector, when the plan needs one (the threshold stage reuses it). */
  queryVector?: Promise<number[]>;
}

/**
 * The branches stage. They start together: the original query, the expansion variants and the HyDE
 * passage (adaptive ones once the decision is taken); each yields ranked lists. The LLM calls go out
 * first, and the original query is searched while they are generated. Then the warnings stage: a
 * failing branch becomes a warning, never a failed search (unless nothing at all was found).
 */
export async function runBranches(run: SearchRun): Promise<BranchesOutcome> {
  const { query, settings } = run;
  const feedback = feedbackOf(run);
  const adaptive = decideAdaptive(run, feedback);

  const expansion = branchRuns(run, 'expansion', adaptive).then((on) => (on ? expand(run, feedback) : null));
  const hyde = branchRuns(run, 'hyde', adaptive).then((on) => (on ? draftHyde(run, feedback) : null));

  const queryVector = run.needsQueryVector ? embedMany(run, [query]).then((all) => all[0]) : undefined;
  queryVector?.catch(() => undefined);
  const original = rankLists(run, 'original', query, settings.ranker, queryVector);
  original.catch(() => undefined);

  // Each variant is searched as soon as the variants arrive; their vectors come from one embedding call.
  const variantLists = expansion.then(async (expanded) => {
    if (!expanded) return [];
    const { variants } = expanded;
    const vectors = searches(run, 'variant', settings.ranker, 'dense') ? embedMany(run, variants) : undefined;
    vectors?.catch(() => undefined);
    const searched = await Promise.allSettled(
      variants.map((variant, i) =>
        rankLists(
          run,
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
    if (failed.length) run.warnings.push(`Searching some variants failed: ${failed.join('; ')}`);
    return searched.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  });
  // HyDE is searched densely (and lexically too when the ranker is hybrid or BM25-only).
  const hydeRanker: Ranker =
    settings.ranker === 'dense' ? 'dense' : settings.ranker === 'bm25' ? 'bm25' : 'hybrid';
  const hydeLists = hyde.then((result) =>
    result?.passage ? rankLists(run, 'hyde', result.passage, hydeRanker) : [],
  );

  const [originalR, expansionR, variantsR, hydeR, hydeListsR] = await Promise.allSettled([
    original,
    expansion,
    variantLists,
    hyde,
    hydeLists,
  ]);

  const { warnings } = run;
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

  return {
    lists,
    expansions: expansionR.status === 'fulfilled' ? expansionR.value : null,
    hyde: hydeR.status === 'fulfilled' ? hydeR.value : null,
    adaptive: adaptive ? await adaptive : null,
    queryVector,
  };
}

/**
 * Offline expansion and HyDE feed back from the original query's BM25 hits; the adaptive decision reads
 * the same hits. Searched once, when first asked for.
 */
function feedbackOf(run: SearchRun): () => Promise<FeedbackHit[]> {
  let hits: Promise<FeedbackHit[]> | undefined;
  const { chunks } = run.ports;
  const depth = Math.max(run.opts.feedbackDocuments, run.opts.answerabilityPassages);
  return () =>
    (hits ??= chunks.lexical(run.query, depth, run.filter).then(async (found) => {
      const records = await chunks.fetch(found.map((hit) => hit.chunkId));
      const byId = new Map(records.map((r) => [r.chunkId, r]));
      return found.flatMap((hit) => {
        const record = byId.get(hit.chunkId);
        if (!record) return [];
        const context = [record.documentTitle, ...record.headingPath].filter(Boolean).join(' › ');
        return [{ chunkId: hit.chunkId, text: record.text, context, score: hit.score }];
      });
    }));
}

/**
 * Adaptive branches wait for the original query's BM25 hits: where the policy's confidence in them
 * reaches its threshold, those branches (and their LLM calls) are skipped. Undefined when no branch is
 * adaptive.
 */
function decideAdaptive(
  run: SearchRun,
  feedback: () => Promise<FeedbackHit[]>,
): Promise<AdaptiveExpansionDecision> | undefined {
  const { settings } = run;
  const adaptive = (['expansion', 'hyde'] as const).filter(
    (branch) => (branch === 'expansion' ? settings.enableQueryExpansion : settings.enableHyDE) === 'adaptive',
  );
  if (adaptive.length === 0) return undefined;
  // A branch measured worse than off here never runs; the policy decides only for the others.
  const worse = adaptive.filter((branch) => run.opts.measuredWorse.includes(branch));
  const asked = adaptive.filter((branch) => !worse.includes(branch));
  const blocked = worse.length > 0 ? { measuredWorse: [...worse] } : {};
  return timed(run, 'adaptive', async (): Promise<AdaptiveExpansionDecision> => {
    const runAll: AdaptiveExpansionDecision = {
      policyVersion: null,
      confidence: null,
      threshold: null,
      skipped: [...worse],
      ran: [...asked],
      features: {},
      contributions: {},
      ...blocked,
    };
    if (asked.length === 0) return runAll;
    const policy = run.opts.expansionPolicy;
    const { chunks } = run.ports;
    if (!policy || !chunks.termEvidence) {
      run.warnings.push('No expansion policy is configured, so the adaptive branches ran.');
      return runAll;
    }
    try {
      const top = (await feedback()).slice(0, run.opts.answerabilityPassages);
      if (top.length === 0) return runAll;
      const evidence = await termEvidenceFor(
        run,
        top.map((hit) => hit.chunkId),
      );
      const features = answerabilityFeatures({ evidence, passageTexts: top });
      const { confidence, contributions } = scoreConfidence(policy, features);
      const skip = confidence >= policy.threshold;
      return {
        policyVersion: policy.version,
        confidence,
        threshold: Number.isFinite(policy.threshold) ? policy.threshold : null,
        skipped: skip ? [...worse, ...asked] : [...worse],
        ran: skip ? [] : [...asked],
        features: Object.fromEntries(policy.features.map((name) => [name, round6(features[name])])),
        contributions,
        ...blocked,
      };
    } catch (error) {
      run.warnings.push(`The adaptive decision could not be taken, so its branches ran: ${reason(error)}`);
      return runAll;
    }
  });
}

function branchRuns(
  run: SearchRun,
  branch: Branch,
  adaptive: Promise<AdaptiveExpansionDecision> | undefined,
): Promise<boolean> {
  const mode = branch === 'expansion' ? run.settings.enableQueryExpansion : run.settings.enableHyDE;
  if (mode !== 'adaptive') return Promise.resolve(mode === true);
  return adaptive!.then((decision) => decision.ran.includes(branch));
}

async function expand(run: SearchRun, feedback: () => Promise<FeedbackHit[]>): Promise<ExpansionTrace> {
  const { query, settings } = run;
  const { expander } = run.ports;
  if (expander) {
    const variants = await generate(run, 'expansion', 'query expansion', (s) =>
      expander.expand(query, settings.expansionCount, s),
    );
    return {
      source: 'llm',
      model: expander.modelId,
      variants: distinctVariants(query, variants, settings.expansionCount),
    };
  }
  const docs = (await feedback()).slice(0, run.opts.feedbackDocuments);
  return { source: 'prf', model: null, variants: feedbackVariants(query, docs, settings.expansionCount) };
}

async function draftHyde(run: SearchRun, feedback: () => Promise<FeedbackHit[]>): Promise<HydeTrace> {
  const generator = run.ports.hyde;
  if (generator) {
    const passage = (await generate(run, 'hyde', 'HyDE', (s) => generator.generate(run.query, s))).trim();
    if (!passage) throw new Error('HyDE returned an empty passage');
    return { source: 'llm', model: generator.modelId, passage };
  }
  const docs = (await feedback()).slice(0, run.opts.feedbackDocuments);
  return { source: 'prf', model: null, passage: feedbackPseudoDocument(docs) };
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
