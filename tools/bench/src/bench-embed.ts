import 'reflect-metadata';
import { quantileSorted } from '@lumina/eval';
import type { EmbeddingProvider } from '@lumina/rag';
import {
  createEmbedder,
  datasetDirOf,
  flags,
  loadEnv,
  loadEvalDataset,
  parseFlags,
  positiveInt,
  runCommand,
  UsageError,
} from '@lumina/server-core';

const USAGE = `usage:
  npm run bench:embed -- --dataset <beir-dir> [--split test] [--queries 100] [--passages 256]
                         [--providers local,minilm]

The embedders the environment can run in process (EMBEDDINGS_PROVIDER values, default USE-lite and
all-MiniLM-L6-v2, with EMBEDDINGS_THREADS and EMBEDDINGS_BATCH_SIZE), side by side in one run: the split's
first queries embedded one at a time as a search embeds its question (p50/p90 in ms), then the corpus's
first passages (title and text, cut to 1,200 characters as a chunk is) in batches as ingestion embeds
them (chunks a second). The models take turns query by query and batch by batch, so a busy machine's
drift spreads over all of them; the last lines give each one's figures as a ratio of the first's.`;

const FLAGS = flags({
  string: 'dataset providers',
  boolean: 'help',
  defaults: { split: 'test', queries: '100', passages: '256', providers: 'local,minilm' },
});

const PASSAGE_CHARS = 1_200;

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(USAGE);
  const providers = values.providers.split(',').map((p) => p.trim());
  for (const provider of providers) {
    if (!['local', 'minilm', 'hash'].includes(provider))
      throw new UsageError(
        `--providers takes local, minilm and hash (in-process embedders), got "${provider}"`,
      );
  }
  const env = loadEnv();
  const queryCount = positiveInt(values.queries, '--queries');
  const passageCount = positiveInt(values.passages, '--passages');
  const { name, dataset, queries } = await loadEvalDataset(
    datasetDirOf(values.dataset, env),
    values.split,
    queryCount,
  );
  const passages = [...dataset.corpus.values()]
    .slice(0, passageCount)
    .map((doc) => `${doc.title}\n\n${doc.text}`.slice(0, PASSAGE_CHARS));
  const embedders: EmbeddingProvider[] = providers.map((provider) =>
    createEmbedder({ ...env, EMBEDDINGS_PROVIDER: provider as typeof env.EMBEDDINGS_PROVIDER }),
  );

  // Loading (the model file, the graph, the tokenizer) is timed apart from the runs.
  const loadMs: number[] = [];
  for (const embedder of embedders) {
    const started = performance.now();
    await embedder.embed(['warm up']);
    loadMs.push(performance.now() - started);
  }
  console.log(
    `${name} (${values.split}): ${queries.length} queries, ${passages.length} passages; threads ` +
      `${env.EMBEDDINGS_THREADS}, batch ${env.EMBEDDINGS_BATCH_SIZE}; load ${embedders
        .map((e, i) => `${e.modelId} ${loadMs[i].toFixed(0)} ms`)
        .join(', ')}`,
  );

  const queryMs = embedders.map(() => [] as number[]);
  for (const [q, query] of queries.entries()) {
    for (let k = 0; k < embedders.length; k++) {
      const i = (q + k) % embedders.length;
      const started = performance.now();
      await embedders[i].embed([query.text]);
      queryMs[i].push(performance.now() - started);
    }
  }
  const passageMs = embedders.map(() => 0);
  const batch = env.EMBEDDINGS_BATCH_SIZE;
  for (let from = 0, b = 0; from < passages.length; from += batch, b++) {
    const texts = passages.slice(from, from + batch);
    for (let k = 0; k < embedders.length; k++) {
      const i = (b + k) % embedders.length;
      const started = performance.now();
      await embedders[i].embed(texts);
      passageMs[i] += performance.now() - started;
    }
  }

  const p = (values: number[], q: number) =>
    quantileSorted(
      [...values].sort((a, b) => a - b),
      q,
    );
  const rates = passageMs.map((ms) => passages.length / (ms / 1000));
  for (const [i, embedder] of embedders.entries()) {
    console.log(
      `${embedder.modelId.padEnd(24)} query p50 ${p(queryMs[i], 0.5).toFixed(1)} ms, p90 ` +
        `${p(queryMs[i], 0.9).toFixed(1)} ms; passages ${rates[i].toFixed(1)} chunks/s`,
    );
  }
  for (let i = 1; i < embedders.length; i++) {
    console.log(
      `${embedders[i].modelId} ÷ ${embedders[0].modelId}: query p50 ×` +
        `${(p(queryMs[i], 0.5) / p(queryMs[0], 0.5)).toFixed(2)}, chunks/s ×${(rates[i] / rates[0]).toFixed(2)}`,
    );
  }
  process.exit(0);
}

runCommand(main, USAGE);
