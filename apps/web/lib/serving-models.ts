/** Which models serve this server, read from GET /health for the settings drawer: pure, so it can be tested. */
import type { HealthReport } from '@lumina/shared';

export type ServingTone = 'good' | 'warn' | 'muted';

export interface ServingModel {
  /** What the model does here. */
  role: string;
  /** The model's name, or what stands in for it. */
  name: string;
  /** One sentence on how it runs: in process with its pinned sha256, an endpoint, or an offline stand-in. */
  detail: string;
  tone: ServingTone;
}

/** The embedders whose names say little on their own. */
const EMBEDDER_NAMES: Record<string, string> = {
  'use-lite-512': 'Universal Sentence Encoder lite',
  'hash-512': 'word-hash stand-in',
  'all-minilm-l6-v2-int8': 'all-MiniLM-L6-v2',
};

function shortSha(sha256: string | null): string {
  return sha256 ? `, sha256 ${sha256.slice(0, 12)}…` : '';
}

function embedderRow(report: HealthReport): ServingModel {
  const row = embedderModelRow(report);
  const fallback = report.embedder.fallback;
  if (fallback) {
    return { ...row, detail: `${row.detail} The default encoder is missing: ${fallback}.`, tone: 'warn' };
  }
  const progress = report.embedder.reembedding;
  if (!progress) return row;
  const count = (n: number) => n.toLocaleString('en-US');
  return {
    ...row,
    detail:
      `${row.detail} Re-embedding the passages after a change of embedder: ${count(progress.done)} of ` +
      `${count(progress.total)} done; keyword search covers all of them meanwhile.`,
    tone: 'warn',
  };
}

function embedderModelRow({ embedder }: HealthReport): ServingModel {
  const known = EMBEDDER_NAMES[embedder.model];
  const name = known ?? embedder.model.replace(/^openai:/, '');
  if (embedder.model === 'use-lite-512') {
    return {
      role: 'Embeddings',
      name,
      detail: `${embedder.dimension}-d, offline; a weak encoder, so keywords carry the hybrid ranking.`,
      tone: 'warn',
    };
  }
  if (embedder.model === 'hash-512') {
    return {
      role: 'Embeddings',
      name,
      detail: `${embedder.dimension}-d; words hashed to vectors, for benchmarks of the pipeline only.`,
      tone: 'warn',
    };
  }
  const where = embedder.model.startsWith('openai:') ? 'an embeddings endpoint' : "the server's process";
  return { role: 'Embeddings', name, detail: `${embedder.dimension}-d, run by ${where}.`, tone: 'good' };
}

function searchRow({ llm }: HealthReport): ServingModel {
  const role = 'Query variants and HyDE';
  if (llm.search.source === 'endpoint') {
    return {
      role,
      name: llm.search.model ?? llm.model ?? 'endpoint',
      detail: 'The configured LLM endpoint writes them.',
      tone: 'good',
    };
  }
  if (llm.search.source === 'local') {
    const local = llm.local;
    const name = local?.model ?? llm.search.model ?? 'local model';
    const loaded =
      local?.loadMs == null
        ? 'loaded at its first request'
        : `loaded in ${(local.loadMs / 1000).toFixed(1)} s`;
    return {
      role,
      name,
      detail: `A small model in the server's process${shortSha(local?.sha256 ?? null)}, ${loaded}.`,
      tone: 'good',
    };
  }
  const missing =
    llm.local?.state === 'missing'
      ? ` The local model is asked for but missing: ${llm.local.reason ?? 'see /health'}.`
      : '';
  return {
    role,
    name: 'offline stand-ins',
    detail: `Pseudo-relevance feedback: terms of the top keyword matches.${missing}`,
    tone: missing ? 'warn' : 'muted',
  };
}

function answerRow({ llm }: HealthReport): ServingModel {
  if (llm.configured) {
    return {
      role: 'Answers',
      name: llm.model ?? 'LLM endpoint',
      detail: 'Written by the configured LLM, citing the passages.',
      tone: 'good',
    };
  }
  return {
    role: 'Answers',
    name: 'extractive',
    detail: 'Sentences quoted from the passages, each with its citation; no model writes them.',
    tone: 'muted',
  };
}

const RERANKER_SOURCES: Record<string, string> = {
  endpoint: 'a rerank endpoint',
  llm: 'the LLM, ranking the candidates as a list',
  fitted: 'a model fitted on a question bank',
  file: 'a model file',
  'cross-encoder': "a cross-encoder in the server's process",
};

function rerankerRow({ reranker }: HealthReport): ServingModel {
  if (!reranker.configured) {
    return { role: 'Reranker', name: 'none', detail: 'Rerank keeps the fused ranking.', tone: 'muted' };
  }
  const source = reranker.source ? RERANKER_SOURCES[reranker.source] : undefined;
  return {
    role: 'Reranker',
    name: reranker.model ?? 'configured',
    detail: source ? `Served by ${source}.` : 'Configured.',
    tone: 'good',
  };
}

/** One row per job a model does in a search or an answer, in the order a question meets them. */
export function servingModels(report: HealthReport): ServingModel[] {
  return [searchRow(report), embedderRow(report), rerankerRow(report), answerRow(report)];
}
