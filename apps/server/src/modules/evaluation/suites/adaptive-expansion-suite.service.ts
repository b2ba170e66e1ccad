import { Injectable } from '@nestjs/common';
import { documentRanking, ndcgAtK } from '@lumina/eval';
import type { ArmRun, BeirDataset, EvalQuery } from '@lumina/eval';
import type { ChunkingSettings, ExpansionPolicy, SearchResult } from '@lumina/rag';
import type { EnhancementMode, SearchSettings } from '@lumina/shared';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SuiteProgress } from './suite-progress';

export type Branch = 'expansion' | 'hyde';

/** One way to run the branches: never, always, or as a policy decides. */
export interface Arm {
  name: string;
  mode: EnhancementMode;
  policy: ExpansionPolicy | null;
}

export interface ArmsInput {
  dataset: BeirDataset;
  queries: EvalQuery[];
  branches: Branch[];
  arms: Arm[];
  concurrency: number;
  /** The LLM calls made so far (counted by the LLM endpoint, when it counts them). */
  llmCalls: () => number;
}

/**
 * Adaptive expansion and HyDE measured: the queries of a BEIR split searched (BM25, deep) with the
 * branches never on, always on and as a policy decides, each arm scored by nDCG@10 with its branch runs
 * and LLM calls counted.
 */
@Injectable()
export class AdaptiveExpansionSuite {
  constructor(
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async index(
    dataset: BeirDataset,
    datasetName: string,
    chunking: ChunkingSettings,
    progress: SuiteProgress,
  ) {
    const indexed = await this.indexer.index(dataset, datasetName, chunking, null, progress.stage);
    progress.note(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written`,
    );
  }

  async runArms(input: ArmsInput, progress: SuiteProgress): Promise<ArmRun[]> {
    const { dataset, branches } = input;
    const runs: ArmRun[] = [];
    for (const arm of input.arms) {
      const search = this.searches.create({ expansionPolicy: arm.policy });
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
          input,
          progress,
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
    return runs;
  }
}

async function runArm(
  name: string,
  input: ArmsInput,
  progress: SuiteProgress,
  search: (query: EvalQuery) => Promise<SearchResult>,
  score: (query: EvalQuery, result: SearchResult) => number,
): Promise<ArmRun> {
  const { queries } = input;
  const callsBefore = input.llmCalls();
  const started = Date.now();
  const results = new Array<SearchResult>(queries.length);
  const report = progress.stage(`searching: ${name}`);
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
  await Promise.all(Array.from({ length: input.concurrency }, worker));
  return {
    name,
    results,
    ndcg: queries.map((q, i) => score(q, results[i])),
    branchRuns: results.reduce((sum, r) => sum + (r.expansions ? 1 : 0) + (r.hyde ? 1 : 0), 0),
    llmCalls: input.llmCalls() - callsBefore,
    seconds: (Date.now() - started) / 1000,
  };
}
