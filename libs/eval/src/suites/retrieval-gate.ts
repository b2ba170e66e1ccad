/** The rankers a retrieval gate can hold to a baseline. */
export type GateRanker = 'bm25' | 'hybrid';

/**
 * A committed retrieval gate: a fixed subset of a BEIR dataset (N test queries, all their judged
 * documents, seeded distractors), the chunking it is indexed with, and the nDCG@10 each ranker must keep
 * (minus the tolerance).
 */
export interface GateBaseline {
  dataset: string;
  subset: { queries: number; distractors: number; seed: number };
  chunking: { unit: 'chunk'; maxChars: number; overlapChars: number };
  tolerance: number;
  ndcgAt10: Partial<Record<GateRanker, number>>;
}

/** The rankers the baseline names, BM25 first. */
export function gateRankers(baseline: GateBaseline): GateRanker[] {
  return (['bm25', 'hybrid'] as const).filter((ranker) => baseline.ndcgAt10[ranker] !== undefined);
}

/** The baseline with the measured nDCG@10 of each ranker, to four decimals. */
export function updatedGateBaseline(
  baseline: GateBaseline,
  measured: ReadonlyMap<GateRanker, number>,
): GateBaseline {
  return {
    ...baseline,
    ndcgAt10: Object.fromEntries(
      gateRankers(baseline).map((ranker) => [ranker, round(measured.get(ranker)!)]),
    ),
  };
}

/** Each ranker's measurement against its floor: passed when none fell below, and the table to print. */
export function gateVerdict(
  datasetName: string,
  baseline: GateBaseline,
  measured: ReadonlyMap<GateRanker, number>,
): { passed: boolean; lines: string[] } {
  let passed = true;
  const lines = [`gate ${datasetName}\nranker     measured  baseline  floor     verdict`];
  for (const ranker of gateRankers(baseline)) {
    const expected = baseline.ndcgAt10[ranker]!;
    const floor = expected - baseline.tolerance;
    const value = measured.get(ranker)!;
    const ok = value >= floor;
    passed &&= ok;
    lines.push(
      `${ranker.padEnd(10)} ${value.toFixed(4)}    ${expected.toFixed(4)}    ` +
        `${floor.toFixed(4)}    ${ok ? 'ok' : 'REGRESSION'}`,
    );
  }
  return { passed, lines };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
