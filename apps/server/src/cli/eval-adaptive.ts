import { readFileSync, writeFileSync } from 'node:fs';
import { expansionSamples, formatAdaptiveSavings, formatArms, formatFittedPolicy } from '@lumina/eval';
import {
  DEFAULT_EXPANSION_POLICY_FIT,
  expansionProbePolicy,
  fitExpansionPolicy,
  parseExpansionPolicy,
} from '@lumina/rag';
import { ScriptedOpenAiServer, searchBranchScript } from '@lumina/testing-llm';
import { loadEnv } from '../config/load-env';
import { AdaptiveExpansionSuite } from '../modules/evaluation/suites/adaptive-expansion-suite.service';
import type { Arm, Branch } from '../modules/evaluation/suites/adaptive-expansion-suite.service';
import { expansionPolicyFor } from '../modules/rag/expansion-policy.loader';
import { flags, nonNegativeInt, nonNegativeNumber, parseFlags, positiveInt, UsageError } from './cli-args';
import { envChunking } from '../config/env-chunking';
import { datasetDirOf, evalDbDir, loadEvalDataset, queryLimitOf, withEvalDatabase } from './command-context';
import { STDERR_PROGRESS } from './progress';

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

const FLAGS = flags({
  string: 'dataset fit version policy limit-queries db-dir',
  boolean: 'help',
  defaults: {
    split: 'test',
    'max-loss': String(DEFAULT_EXPANSION_POLICY_FIT.maxLoss),
    'min-confidence': String(DEFAULT_EXPANSION_POLICY_FIT.minConfidence),
    branches: 'expansion,hyde',
    llm: 'scripted',
    'llm-latency': '0',
    concurrency: '4',
  },
});

export async function runAdaptiveCli(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(ADAPTIVE_USAGE);
  const loaded = loadEnv();
  const datasetDir = datasetDirOf(values.dataset, loaded);
  if (values.fit && !values.version)
    throw new UsageError('--version <name> is required: every trace names it');
  const branches = values.branches.split(',') as Branch[];
  if (branches.length === 0 || branches.some((b) => b !== 'expansion' && b !== 'hyde'))
    throw new UsageError('--branches takes expansion, hyde or expansion,hyde');
  if (values.llm !== 'scripted' && values.llm !== 'env')
    throw new UsageError('--llm must be scripted or env');
  const maxLoss = nonNegativeNumber(values['max-loss'], '--max-loss');
  const concurrency = positiveInt(values.concurrency, '--concurrency');
  const limit = queryLimitOf(values['limit-queries']);

  const llm =
    values.llm === 'scripted'
      ? await ScriptedOpenAiServer.start({
          script: searchBranchScript,
          latencyMs: nonNegativeInt(values['llm-latency'], '--llm-latency'),
        })
      : null;
  const env = llm
    ? { ...loaded, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted', LLM_API_KEY: 'none' }
    : loaded;
  if (!env.LLM_BASE_URL) throw new UsageError('--llm env needs LLM_BASE_URL');
  const { name, dataset, queries } = await loadEvalDataset(datasetDir, values.split, limit);
  const chunking = envChunking(env);
  try {
    await withEvalDatabase(env, values['db-dir'] ?? evalDbDir(name, chunking), async (app) => {
      const suite = app.get(AdaptiveExpansionSuite);
      await suite.index(dataset, name, chunking, STDERR_PROGRESS);
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
      const llmCalls = () => llm?.calls ?? 0;
      const runs = await suite.runArms(
        { dataset, queries, branches, arms, concurrency, llmCalls },
        STDERR_PROGRESS,
      );
      console.log(formatArms(runs, queries.length, branches.length));
      const [never, always] = runs;
      if (!fitting) return console.log(formatAdaptiveSavings(always, runs[2], queries.length));
      const samples = expansionSamples(
        queries.map((q) => q.id),
        never,
        always,
        dataset.qrels,
      );
      const fitted = fitExpansionPolicy(samples, {
        version: values.version!,
        source: `${name}:${values.split}`,
        branches: `${branches.join('+')} (${llm ? 'scripted LLM' : env.LLM_MODEL})`,
        maxLoss,
        minConfidence: nonNegativeNumber(values['min-confidence'], '--min-confidence'),
        features: DEFAULT_EXPANSION_POLICY_FIT.features,
        l2: DEFAULT_EXPANSION_POLICY_FIT.l2,
      });
      console.log(formatFittedPolicy(fitted, maxLoss));
      writeFileSync(values.fit!, `${JSON.stringify(fitted, null, 2)}\n`);
      console.error(`policy ${fitted.version} written to ${values.fit}`);
    });
  } finally {
    await llm?.close();
  }
}
