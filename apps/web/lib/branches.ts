/** Which query a retrieval branch ran ('original', 'variant', 'hyde') and with which ranker. */
export interface BranchLabel {
  kind: 'original' | 'variant' | 'hyde' | 'other';
  /** 1-based variant number. */
  variant: number | null;
  retriever: string | null;
  /** e.g. "Variant 2 · BM25". */
  label: string;
}

const RETRIEVERS: Record<string, string> = { bm25: 'BM25', dense: 'dense', lexical: 'BM25', vector: 'dense' };

/** Reads 'original:bm25', 'variant-2:dense', 'hyde:dense' (and a bare 'bm25' as the original query). */
export function parseBranch(branch: string): BranchLabel {
  const [head, tail] = branch.includes(':') ? branch.split(':', 2) : [branch, ''];
  const lowered = head.toLowerCase();
  const retrieverKey = (tail || (RETRIEVERS[lowered] ? lowered : '')).toLowerCase();
  const retriever = retrieverKey ? (RETRIEVERS[retrieverKey] ?? retrieverKey) : null;
  const suffix = retriever ? ` · ${retriever}` : '';
  if (lowered === 'original' || (!tail && RETRIEVERS[lowered])) {
    return { kind: 'original', variant: null, retriever, label: `Original query${suffix}` };
  }
  const variant = /^(?:variant|expansion)[-_ ]?(\d+)$/.exec(lowered);
  if (variant) {
    const n = Number(variant[1]);
    return { kind: 'variant', variant: n, retriever, label: `Variant ${n}${suffix}` };
  }
  if (lowered === 'hyde') return { kind: 'hyde', variant: null, retriever, label: `HyDE${suffix}` };
  return { kind: 'other', variant: null, retriever, label: branch };
}

/** Human name of a timing key: 'branch:variant-1:bm25' → 'Variant 1 · BM25', 'llm' → 'LLM (expansion, HyDE)'. */
export function timingLabel(key: string): string {
  if (key.startsWith('branch:')) return parseBranch(key.slice('branch:'.length)).label;
  const names: Record<string, string> = {
    total: 'Total',
    llm: 'LLM (expansion, HyDE)',
    fuse: 'Fusion',
    rerank: 'Rerank',
    retrieval: 'Retrieval',
    search: 'Search',
    generation: 'Answer generation',
    firstToken: 'First token',
    rewrite: 'Question rewrite',
  };
  return names[key] ?? key;
}
