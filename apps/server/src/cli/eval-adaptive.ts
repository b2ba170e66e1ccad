import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  documentRanking,
  loadBeirDataset,
  ndcgAtK,
  pairedRandomizationTest,
  selectQueriesWithQrels,
} from '@lumina/eval';
import type { EvalQuery } from '@lumina/eval';
import {
  DEFAULT_EXPANSION_POLICY_FIT,
  expansionProbePolicy,
  fitExpansionPolicy,
  parseExpansionPolicy,
} from '@lumina/rag';
import type { ExpansionPolicy, ExpansionSample, FeatureVector, SearchResult } from '@lumina/rag';
import type { EnhancementMode, SearchSettings } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../app-data-source';
import { expansionPolicyFor } from '../modules/rag/expansion-policy.loader';
import { createEmbedder } from '../providers/create-embedder';
import { indexBeirCorpus } from './beir-index';
import { nonNegativeInt, nonNegativeNumber, positiveInt, UsageError } from './cli-args';
import { createEvalSearch } from './eval-search';
import { progressReporter } from './progress';
import { ScriptedLlmServer } from './scripted-llm-server';
import { nodeDatasetFiles } from '../files/node-dataset-files';

export const ADAPTIVE_USAGE = `usage:
  npm run eval -- --suite adaptive --dataset <beir-dir> --split train --fit <policy.json> --version <name>
                  [--max-loss 0.005] [--min-confidence 0.5] [--branches expansion,hyde] [--llm scripted|env] [--llm-latency 0]
                  [--limit-queries N] [--concurrency 4] [--db-dir <dir>]
  npm run eval -- --suite adaptive --dataset <beir-dir> --split test [--policy <policy.json>] ...

Adaptive expansion and HyDE: the original query is searched first, and where the policy's fitted
confidence that its best passage is relevant reaches the threshold, the branches are skipped with their
LLM calls. --fit searches every judged query of the split (use TRAIN) with the branches and without,
fits the confidence model and chooses the lowest threshold, from --min-confidence up, whose nDCG@10
stays within --max-loss of always running the branches. Without --fit it evaluates a policy (--policy, else EXPANSION_POLICY_FILE
or the shipped one): never, always and adaptive side by side, with branch runs, LLM calls counted by the
LLM endpoint, and a paired test of adaptive against always-on. --llm scripted (the default) starts a
scripted OpenAI-compatible server on 127.0.0.1 for expansion and HyDE; --llm env uses LLM_BASE_URL.`;

type Branch = 'expansion' | 'hyde';

interface Arm {
  name: string;
  mode: EnhancementMode;
  policy: ExpansionPolicy | null;
}

interface ArmRun {
  name: string;
  ndcg: number[];
  results: SearchResult[];
  branchRuns: number;
  llmCalls: number;
  seconds: number;
}

export async function runAdaptiveCli(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      fit: { type: 'string' },
      version: { type: 'string' },
      policy: { type: 'string' },
      'max-loss': { type: 'string', default: String(DEFAULT_EXPANSION_POLICY_FIT.maxLoss) },
      'min-confidence': { type: 'string', default: String(DEFAULT_EXPANSION_POLICY_FIT.minConfidence) },
      branches: { type: 'string', default: 'expansion,hyde' },
      llm: { type: 'string', default: 'scripted' },
      'llm-latency': { type: 'string', default: '0' },
      'limit-queries': { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      'db-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(ADAPTIVE_USAGE);
    return;
  }
  const loaded = loadEnv();
  const datasetDir = values.dataset ?? loaded.EVAL_DATASET_DIR;
  if (!datasetDir) throw new UsageError('--dataset (or EVAL_DATASET_DIR) is required');
  if (values.fit && !values.version)
    throw new UsageError('--version <name> is required: every trace names it');
  const branches = values.branches.split(',') as Branch[];
  if (branches.length === 0 || branches.some((b) => b !== 'expansion' && b !== 'hyde'))
    throw new UsageError('--branches takes expansion, hyde or expansion,hyde');
  if (values.llm !== 'scripted' && values.llm !== 'env')
    throw new UsageError('--llm must be scripted or env');
  const maxLoss = nonNegativeNumber(values['max-loss'], '--max-loss');
  const concurrency = positiveInt(values.concurrency, '--concurrency');
  const limit = values['limit-queries'] ? positiveInt(values['limit-queries'], '--limit-queries') : undefined;

  const llm =
    values.llm === 'scripted'
      ? await ScriptedLlmServer.start(nonNegativeInt(values['llm-latency'], '--llm-latency'))
      : null;
  const env = llm
    ? { ...loaded, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted', LLM_API_KEY: 'none' }
    : loaded;
  if (!env.LLM_BASE_URL) throw new UsageError('--llm env needs LLM_BASE_URL');
  const datasetName = basename(resolve(datasetDir));
  const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);
  const queries = selectQueriesWithQrels(dataset).slice(0, limit);
  const chunking = {
    unit: 'chunk' as const,
    maxChars: env.CHUNK_MAX_CHARS,
    overlapChars: env.CHUNK_OVERLAP_CHARS,
  };
  const dbDir =
    values['db-dir'] ?? `.data/eval/${datasetName}-chunk-${chunking.maxChars}-${chunking.overlapChars}`;
  const database = await openDataSource({ ...env, PGLITE_DATA_DIR: dbDir, PGLITE_PORT: 0 });
  try {
    const { dataSource } = database;
    const embedder = createEmbedder(env);
    const indexed = await indexBeirCorpus(dataSource, dataset, datasetName, chunking, null, progressReporter);
    console.error(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written`,
    );
    const fitting = Boolean(values.fit);
    const policy = fitting
      ? expansionProbePolicy()
      : values.policy
        ? parseExpansionPolicy(JSON.parse(readFileSync(values.policy, 'utf8')))
        : expansionPolicyFor(env);
    if (!policy) throw new UsageError('no policy to evaluate: give --policy <policy.json>');
    // The probe records every feature and never skips, so it is also the always-on arm of a fit.
    const arms: Arm[] = [
      { name: 'never', mode: false, policy: null },
      ...(fitting ? [] : [{ name: 'always', mode: true, policy: null } as Arm]),
      { name: fitting ? 'always (probe)' : `adaptive (${policy.version})`, mode: 'adaptive', policy },
    ];
    const runs: ArmRun[] = [];
    for (const arm of arms) {
      const search = createEvalSearch(dataSource, env, embedder, { expansionPolicy: arm.policy });
      const settings: Partial<SearchSettings> = {
        ranker: 'bm25',
        enableQueryExpansion: branches.includes('expansion') ? arm.mode : false,
        enableHyDE: branches.includes('hyde') ? arm.mode : false,
        topK: 300,
        candidateK: 300,
      };
      runs.push(
        await runArm(
          arm.name,
          queries,
          concurrency,
          llm,
          (q) => search.search(q.text, settings),
          (q, result) =>
            ndcgAtK(
              documentRanking(
                result.results.map((hit) => ({ documentId: hit.externalId ?? hit.documentId })),
              ),
              dataset.qrels.get(q.id) ?? new Map(),
              10,
            ),
        ),
      );
    }
    printArms(runs, queries.length, branches.length);
    const never = runs[0];
    const always = runs[1];
    if (fitting) {
      const samples: ExpansionSample[] = queries.map((q, i) => {
        const top = never.results[i].results[0];
        const doc = top ? (top.externalId ?? top.documentId) : null;
        return {
          features: always.results[i].adaptive!.features as FeatureVector,
          top1Relevant: doc !== null && (dataset.qrels.get(q.id)?.get(doc) ?? 0) > 0,
          ndcgWith: always.ndcg[i],
          ndcgWithout: never.ndcg[i],
        };
      });
      const fitted = fitExpansionPolicy(samples, {
        version: values.version!,
        source: `${datasetName}:${values.split}`,
        branches: `${branches.join('+')} (${llm ? 'scripted LLM' : env.LLM_MODEL})`,
        maxLoss,
        minConfidence: nonNegativeNumber(values['min-confidence'], '--min-confidence'),
        features: DEFAULT_EXPANSION_POLICY_FIT.features,
        l2: DEFAULT_EXPANSION_POLICY_FIT.l2,
      });
      console.log(
        `\npolicy ${fitted.version}: confidence AUC ${fitted.fittedOn.auc?.toFixed(3)} (best passage relevant), ` +
          `threshold ${fitted.threshold} skips ${(fitted.tradeOff.skipped * 100).toFixed(1)}% at nDCG@10 ` +
          `${fitted.tradeOff.ndcgAdaptive.toFixed(4)} against always-on ${fitted.tradeOff.ndcgAlwaysOn.toFixed(4)} ` +
          `(never ${fitted.tradeOff.ndcgNever.toFixed(4)}; budget ${maxLoss})`,
      );
      console.log('threshold  skipped  nDCG@10');
      for (const p of fitted.curve)
        console.log(
          `${p.threshold.toFixed(4).padStart(9)}  ${(p.skipped * 100).toFixed(1).padStart(6)}%  ${p.ndcg.toFixed(4)}`,
        );
      writeFileSync(values.fit!, `${JSON.stringify(fitted, null, 2)}\n`);
      console.error(`policy ${fitted.version} written to ${values.fit}`);
      return;
    }
    const adaptive = runs[2];
    const skipped = adaptive.results.filter((r) => (r.adaptive?.skipped.length ?? 0) > 0).length;
    const test = pairedRandomizationTest(always.ndcg, adaptive.ndcg);
    console.log(
      `\nadaptive against always-on: ${((1 - adaptive.branchRuns / Math.max(always.branchRuns, 1)) * 100).toFixed(1)}% ` +
        `of branch runs saved (${skipped} of ${queries.length} queries skipped), ` +
        `${((1 - adaptive.llmCalls / Math.max(always.llmCalls, 1)) * 100).toFixed(1)}% of LLM calls saved; ` +
        `nDCG@10 ${signed(test.meanDiff)} (paired randomisation p = ${test.pValue.toFixed(4)})`,
    );
  } finally {
    await database.close();
    await llm?.close();
  }
}

async function runArm(
  name: string,
  queries: EvalQuery[],
  concurrency: number,
  llm: ScriptedLlmServer | null,
  search: (query: EvalQuery) => Promise<SearchResult>,
  score: (query: EvalQuery, result: SearchResult) => number,
): Promise<ArmRun> {
  const callsBefore = llm?.calls ?? 0;
  const started = Date.now();
  const results = new Array<SearchResult>(queries.length);
  const report = progressReporter(`searching: ${name}`);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < queries.length) {
      const i = next++;
      const result = await search(queries[i]);
      const failed = result.warnings.find((w) => /failed|could not/.test(w));
      if (failed) throw new Error(`query ${queries[i].id}: ${failed}`);
      results[i] = result;
      report(++done, queries.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    name,
    results,
    ndcg: queries.map((q, i) => score(q, results[i])),
    branchRuns: results.reduce((sum, r) => sum + (r.expansions ? 1 : 0) + (r.hyde ? 1 : 0), 0),
    llmCalls: (llm?.calls ?? 0) - callsBefore,
    seconds: (Date.now() - started) / 1000,
  };
}

function printArms(runs: ArmRun[], queries: number, branches: number): void {
  console.log(`${queries} queries, ${branches} branch(es) each when on`);
  console.log('arm                               nDCG@10  branch runs  LLM calls  seconds');
  for (const run of runs) {
    const mean = run.ndcg.reduce((sum, v) => sum + v, 0) / Math.max(run.ndcg.length, 1);
    console.log(
      `${run.name.padEnd(32)}  ${mean.toFixed(4)}  ${String(run.branchRuns).padStart(11)}  ${String(run.llmCalls).padStart(9)}  ${run.seconds.toFixed(1).padStart(7)}`,
    );
  }
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}
