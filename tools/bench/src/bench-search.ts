import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { searchKnowledge } from '@lumina/rag';
import type { ChatModel, ChunkingSettings, SearchOptions, SearchPorts, SearchResult } from '@lumina/rag';
import {
  BeirCorpusIndexer,
  CHAT_MODEL,
  datasetDirOf,
  embeddingCacheKey,
  EvalSearchFactory,
  evalDbDir,
  flags,
  llmSearchPorts,
  loadEnv,
  loadEvalDataset,
  nonNegativeInt,
  parseFlags,
  positiveInt,
  progressReporter,
  runCommand,
  UsageError,
  withEvalDatabase,
} from '@lumina/server-core';
import type { SearchSettings } from '@lumina/shared';
import { ScriptedOpenAiServer, searchBranchScript } from '@lumina/testing-llm';
import { DataSource } from 'typeorm';
import { randomWordDocuments } from './random-word-documents';
import { summarizeLatency } from './scale/latency-summary';
import { COUNT_CHUNKS_SQL, COUNT_TERMS_SQL, FORGET_CACHED_VECTORS_SQL } from './sql/search-bench.sql';

const USAGE = `usage:
  npm run bench:search -- --dataset <beir-dir> [--split test] [--limit-queries 50] [--llm-latency 300]
                          [--warmup 3] [--chunk-size 900 --overlap 180] [--db-dir <dir>] [--json <file>]
                          [--random-docs 2 [--random-doc-kb 200]]

Latency of one search at a time, as the API runs it, for dense, bm25, hybrid, and hybrid with LLM query
expansion and HyDE answered by an in-process scripted LLM with a fixed latency over real HTTP. Reuses the
index the eval command built (.data/eval/<dataset>-chunk-<size>-<overlap>) or builds it. Every search
starts with the query's vector out of the embedding cache, as a new query would.

--random-docs N also indexes N documents of random words (--random-doc-kb each, default 200 KB) beside
the corpus, as an upload of nonsense would: tens of thousands of new terms in the BM25 vocabulary. Give
it its own --db-dir (or run it after the clean run: the documents stay in that database).`;

interface Mode {
  name: string;
  settings: Partial<SearchSettings>;
}

const MODES: Mode[] = [
  { name: 'dense', settings: { ranker: 'dense' } },
  { name: 'bm25', settings: { ranker: 'bm25' } },
  { name: 'hybrid', settings: { ranker: 'hybrid' } },
  {
    name: 'hybrid + expansion + HyDE (llm)',
    settings: { ranker: 'hybrid', enableQueryExpansion: true, enableHyDE: true },
  },
];

const FLAGS = flags({
  string: 'dataset chunk-size overlap db-dir json',
  boolean: 'help',
  defaults: {
    split: 'test',
    'limit-queries': '50',
    'llm-latency': '300',
    warmup: '3',
    'random-docs': '0',
    'random-doc-kb': '200',
  },
});

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = loadEnv();
  const datasetDir = datasetDirOf(values.dataset, env);
  const limit = positiveInt(values['limit-queries'], '--limit-queries');
  const llmLatency = positiveInt(values['llm-latency'], '--llm-latency');
  const warmup = nonNegativeInt(values.warmup, '--warmup');
  const randomDocs = nonNegativeInt(values['random-docs'], '--random-docs');
  const randomDocKb = positiveInt(values['random-doc-kb'], '--random-doc-kb');
  const chunking: ChunkingSettings = {
    unit: 'chunk',
    maxChars: positiveInt(values['chunk-size'] ?? String(env.CHUNK_MAX_CHARS), '--chunk-size'),
    overlapChars: nonNegativeInt(values.overlap ?? String(env.CHUNK_OVERLAP_CHARS), '--overlap'),
  };
  const {
    name: datasetName,
    dataset,
    queries,
  } = await loadEvalDataset(datasetDir, values.split, warmup + limit);
  if (queries.length <= warmup)
    throw new UsageError(`the split has only ${queries.length} queries with judgments`);
  const dbDir = values['db-dir'] ?? evalDbDir(datasetName, chunking);
  const llm = await ScriptedOpenAiServer.start({ script: searchBranchScript, latencyMs: llmLatency });
  // The chat model of the context: the scripted LLM, through the app's adapter, without retries.
  const llmEnv = { ...env, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted-bench', LLM_MAX_RETRIES: 0 };
  try {
    await withEvalDatabase(llmEnv, dbDir, async (app) => {
      const dataSource = app.get(DataSource);
      const chat = app.get<ChatModel>(CHAT_MODEL);
      const built = app.get(EvalSearchFactory).ports(llmSearchPorts(chat, null));
      const indexed = await app
        .get(BeirCorpusIndexer)
        .index(dataset, datasetName, chunking, built.embedder, progressReporter);
      console.error(
        `index: ${indexed.documentsAdded} documents added, ${indexed.vectorsBackfilled} vectors added in ${indexed.seconds}s`,
      );
      if (randomDocs > 0) {
        const noise = randomWordDocuments(randomDocs, randomDocKb * 1024);
        const added = await app
          .get(BeirCorpusIndexer)
          .index(
            { corpus: new Map(noise.map((document) => [document.id, document])) },
            `${datasetName}-random-words`,
            chunking,
            built.embedder,
            progressReporter,
          );
        console.error(
          `random words: ${added.documentsAdded} documents of ${randomDocKb} KB added in ${added.seconds}s`,
        );
      }
      const [{ chunks }] = await dataSource.query(COUNT_CHUNKS_SQL);
      const [{ terms }] = await dataSource.query(COUNT_TERMS_SQL);

      /** New queries are not in the embedding cache: forget the texts a search embedded. */
      const forget = async (texts: string[]) => {
        await dataSource.query(FORGET_CACHED_VECTORS_SQL, [
          texts.map((text) => embeddingCacheKey(built.embedder, text)),
        ]);
      };
      const run = async (text: string, mode: Mode, ports: SearchPorts, options: Partial<SearchOptions>) => {
        await forget([text]);
        const started = performance.now();
        const result = await searchKnowledge(text, mode.settings, ports, options);
        const ms = performance.now() - started;
        await forget(
          [text, ...(result.expansions?.variants ?? []), result.hyde?.passage ?? ''].filter(Boolean),
        );
        return { ms, result };
      };

      // One LLM call on its own, through the same adapter and HTTP path.
      const llmCallMs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await chat.complete({ messages: [{ role: 'user', content: `Question: warm up ${i}` }] });
        llmCallMs.push(performance.now() - started);
      }

      const timings = new Map<string, number[]>(MODES.map((mode) => [mode.name, []]));
      const ratios: number[] = [];
      /** Where the enhanced search spends its time: each branch and LLM call, and what follows the LLM. */
      const branchMs = new Map<string, number[]>();
      const warnings: string[] = [];
      let llmCallsBefore = llm.calls;
      const report = progressReporter('searching');
      for (let i = 0; i < queries.length; i++) {
        const measured = i >= warmup;
        const byMode = new Map<string, SearchResult & { ms: number }>();
        for (const mode of MODES) {
          const { ms, result } = await run(queries[i].text, mode, built.ports, built.options);
          byMode.set(mode.name, { ...result, ms });
          if (measured) {
            timings.get(mode.name)!.push(ms);
            warnings.push(...result.warnings);
          }
        }
        if (measured) {
          const enhanced = byMode.get(MODES[3].name)!;
          ratios.push(enhanced.ms / (median(llmCallMs) + byMode.get('hybrid')!.ms));
          const parts = {
            ...enhanced.timings.perBranch,
            'after the LLM answered': enhanced.ms - enhanced.timings.llm,
          };
          for (const [name, ms] of Object.entries(parts))
            branchMs.set(name, [...(branchMs.get(name) ?? []), ms]);
        } else {
          llmCallsBefore = llm.calls;
        }
        if (measured) report(i - warmup + 1, queries.length - warmup);
      }
      const measuredQueries = queries.length - warmup;

      const rows = MODES.map((mode) => ({ mode: mode.name, ...summary(timings.get(mode.name)!) }));
      const llmCall = summary(llmCallMs);
      const ratio = summary(ratios);
      const hybridP50 = rows[2].p50;
      const enhancedP50 = rows[3].p50;
      const lines = [
        `search latency on ${datasetName}/${values.split}: ${measuredQueries} queries one at a time (after ${warmup} ` +
          `warm-up), ${chunks} chunks of ${chunking.maxChars}/${chunking.overlapChars} (${terms} BM25 terms` +
          `${randomDocs > 0 ? `, with ${randomDocs} random-word documents of ${randomDocKb} KB` : ''}), ` +
          `embedder ${built.embedder.modelId}, ` +
          `topK 6, candidateK 30, scripted LLM ${llmLatency} ms per call over HTTP`,
        '',
        `${'mode'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'mean ms'.padStart(9)}`,
        ...rows.map((row) => `${row.mode.padEnd(34)}${fmt(row.p50)}${fmt(row.p95)}${fmt(row.mean)}`),
        `${'one LLM call (scripted)'.padEnd(34)}${fmt(llmCall.p50)}${fmt(llmCall.p95)}${fmt(llmCall.mean)}`,
        '',
        `concurrency ratio t(hybrid + expansion + HyDE) / (t(one LLM call) + t(hybrid)), per query:`,
        `  p50 ${ratio.p50.toFixed(2)}  p95 ${ratio.p95.toFixed(2)}  (bound 1.25; both LLM calls in sequence would be ≥ ` +
          `${((2 * llmCall.p50 + hybridP50) / (llmCall.p50 + hybridP50)).toFixed(2)})`,
        `  of the medians: ${enhancedP50.toFixed(0)} / (${llmCall.p50.toFixed(0)} + ${hybridP50.toFixed(0)}) = ` +
          `${(enhancedP50 / (llmCall.p50 + hybridP50)).toFixed(2)}`,
        `hybrid + expansion + HyDE, p50 ms per part (branches overlap): ${[...branchMs.entries()]
          .map(([name, values]) => `${name} ${median(values).toFixed(0)}`)
          .join(', ')}`,
        `LLM calls per enhanced search: ${((llm.calls - llmCallsBefore) / measuredQueries).toFixed(1)}, ` +
          `most at once: ${llm.maxInFlight}; warnings: ${warnings.length ? [...new Set(warnings)].join(' | ') : 'none'}`,
      ];
      console.log(lines.join('\n'));
      if (values.json) {
        writeFileSync(
          values.json,
          JSON.stringify(
            {
              dataset: datasetName,
              split: values.split,
              queries: measuredQueries,
              llmLatency,
              chunks,
              terms,
              randomDocs: randomDocs > 0 ? { count: randomDocs, kb: randomDocKb } : null,
              rows,
              llmCall,
              ratio,
            },
            null,
            2,
          ),
        );
        console.error(`report written to ${values.json}`);
      }
    });
  } finally {
    await llm.close();
  }
}

function summary(values: number[]): { p50: number; p95: number; mean: number } {
  const { p50, p95, mean } = summarizeLatency(values);
  return { p50, p95, mean };
}

function median(values: number[]): number {
  return summary(values).p50;
}

function fmt(ms: number): string {
  return ms.toFixed(1).padStart(9);
}

runCommand(main, USAGE);
