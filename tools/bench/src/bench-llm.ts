import 'reflect-metadata';
import { quantileSorted } from '@lumina/eval';
import { LlmHydeGenerator } from '@lumina/rag';
import type { ChatCompletion, ChatModel, CompletionRequest } from '@lumina/rag';
import {
  createLocalChatModel,
  llmExpander,
  datasetDirOf,
  flags,
  loadEnv,
  loadEvalDataset,
  nonNegativeInt,
  parseFlags,
  positiveInt,
  runCommand,
  UsageError,
} from '@lumina/server-core';

const USAGE = `usage:
  npm run bench:llm -- --dataset <beir-dir> [--split test] [--limit-queries 20] [--count 3]
                       [--expansion lines|json]

The local LLM (LLM_PROVIDER=local, LLM_LOCAL_MODEL, LLM_THREADS, LLM_LOCAL_SEQUENCES, LLM_LOCAL_MAX_TOKENS)
writing the search's HyDE passage and multi-query variants for the split's first queries, one query at a
time: HyDE alone, expansion alone, and both at once as the search asks for them (parallel sequences of one
context). Prints the load time, each mode's p50/p90 in ms, the ratios "both ÷ HyDE alone" and
"both ÷ (HyDE alone + expansion alone)" per query (their medians), the tokens each request wrote, and
how often the model's output passed the expander's and the generator's checks. The modes take turns
in a rotating order, so a machine's drift spreads over all three.
--expansion: the expansion prompt (default: lines, what the search gives the local model; json: the
endpoints' prompt).`;

const FLAGS = flags({
  string: 'dataset',
  boolean: 'help',
  defaults: { split: 'test', 'limit-queries': '20', count: '3', expansion: 'lines' },
});

/** The chat model, counting the tokens each answer took. */
function counting(model: ChatModel, tokens: number[]): ChatModel {
  return {
    modelId: model.modelId,
    stream: (request) => model.stream(request),
    complete: async (request: CompletionRequest): Promise<ChatCompletion> => {
      const answer = await model.complete(request);
      if (answer.usage) tokens.push(answer.usage.completionTokens);
      return answer;
    },
  };
}

function mean(values: number[]): string {
  return values.length ? (values.reduce((a, b) => a + b, 0) / values.length).toFixed(0) : '?';
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${quantileSorted(sorted, 0.5).toFixed(0)} ms, p90 ${quantileSorted(sorted, 0.9).toFixed(0)} ms`;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T | Error }> {
  const started = performance.now();
  const value = await work().catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
  return { ms: performance.now() - started, value };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(USAGE);
  const env = loadEnv({ LLM_PROVIDER: 'local', LLM_BASE_URL: undefined });
  const setup = createLocalChatModel(env);
  if (setup.state !== 'ready')
    throw new UsageError(setup.state === 'missing' ? setup.reason : 'no local model');
  const model = setup.model;
  const limit = positiveInt(values['limit-queries'], '--limit-queries');
  const count = nonNegativeInt(values.count, '--count');
  const { name, queries } = await loadEvalDataset(datasetDirOf(values.dataset, env), values.split, limit);
  const format = values.expansion;
  if (format !== 'lines' && format !== 'json') throw new UsageError('--expansion is lines or json');
  const tokens = { hyde: [] as number[], expansion: [] as number[] };
  const expander = llmExpander(counting(model, tokens.expansion), format);
  const hyde = new LlmHydeGenerator(counting(model, tokens.hyde));
  const signal = new AbortController().signal;

  const load = await timed(() =>
    model.complete({ messages: [{ role: 'user', content: 'Hello.' }], maxTokens: 1 }),
  );
  console.log(
    `${expander.modelId} on ${name} (${values.split}, ${queries.length} queries): threads ${env.LLM_THREADS}, ` +
      `sequences ${env.LLM_LOCAL_SEQUENCES}, max tokens ${env.LLM_LOCAL_MAX_TOKENS}; ` +
      `load ${model.status().loadMs ?? '?'} ms (first request ${load.ms.toFixed(0)} ms)`,
  );

  const times = { hyde: [] as number[], expansion: [] as number[], both: [] as number[] };
  const ratios: number[] = [];
  /** Both at once ÷ (HyDE alone + expansion alone): 1 when the two sequences never overlap. */
  const overlap: number[] = [];
  let passages = 0;
  let passageWords = 0;
  let variantSets = 0;
  let variants = 0;
  const failures = new Map<string, number>();
  const fail = (error: Error) => {
    const key = error.message.replace(/"[^"]*"/g, '"…"').slice(0, 100);
    failures.set(key, (failures.get(key) ?? 0) + 1);
  };

  for (const [i, query] of queries.entries()) {
    const modes = {
      hyde: () => timed(() => hyde.generate(query.text, signal)),
      expansion: () => timed(() => expander.expand(query.text, count, signal)),
      both: () =>
        timed(() =>
          Promise.all([hyde.generate(query.text, signal), expander.expand(query.text, count, signal)]),
        ),
    };
    const order = (['hyde', 'expansion', 'both'] as const).map((_, k, all) => all[(i + k) % all.length]);
    const seen: Partial<Record<keyof typeof modes, number>> = {};
    for (const mode of order) {
      const { ms, value } = await modes[mode]();
      times[mode].push(ms);
      seen[mode] = ms;
      if (value instanceof Error) {
        fail(value);
        continue;
      }
      if (mode === 'hyde') {
        passages++;
        passageWords += (value as string).split(/\s+/).length;
      } else if (mode === 'expansion') {
        variantSets++;
        variants += (value as string[]).length;
      }
    }
    ratios.push(seen.both! / seen.hyde!);
    overlap.push(seen.both! / (seen.hyde! + seen.expansion!));
    // One line a query: a run stopped early still leaves its figures.
    process.stderr.write(
      `${i + 1}/${queries.length}: HyDE ${seen.hyde!.toFixed(0)} ms, expansion ${seen.expansion!.toFixed(0)} ms, ` +
        `both ${seen.both!.toFixed(0)} ms, both ÷ HyDE ${ratios[ratios.length - 1].toFixed(2)}, ` +
        `tokens HyDE ${tokens.hyde.slice(-2).join('/')}, expansion ${tokens.expansion.slice(-2).join('/')}\n`,
    );
  }
  const sortedRatios = [...ratios].sort((a, b) => a - b);
  console.log(`HyDE alone:       ${summary(times.hyde)}`);
  console.log(`expansion alone:  ${summary(times.expansion)}`);
  console.log(`both at once:     ${summary(times.both)}`);
  console.log(`both ÷ HyDE alone, per query: median ${quantileSorted(sortedRatios, 0.5).toFixed(2)}`);
  console.log(
    `both ÷ (HyDE alone + expansion alone), per query: median ` +
      `${quantileSorted(
        [...overlap].sort((a, b) => a - b),
        0.5,
      ).toFixed(2)} (1: the sequences never overlap)`,
  );
  console.log(
    `HyDE passages that passed the checks: ${passages}/${queries.length}` +
      (passages ? ` (${(passageWords / passages).toFixed(0)} words on average)` : ''),
  );
  console.log(
    `variant sets that passed the checks: ${variantSets}/${queries.length}` +
      (variantSets ? ` (${(variants / variantSets).toFixed(1)} variants on average, ${count} asked)` : ''),
  );
  console.log(
    `tokens written per request (mean): HyDE ${mean(tokens.hyde)}, expansion ${mean(tokens.expansion)}`,
  );
  for (const [message, times] of failures) console.log(`  refused ${times}×: ${message}`);
  await model.close();
}

runCommand(main, USAGE);
