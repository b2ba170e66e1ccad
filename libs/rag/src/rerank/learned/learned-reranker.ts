import type { EvidenceReranker, EvidenceRerankInput, RerankExplanation } from '../reranker.port';
import { DENSE_LTR_FEATURES, ltrFeatureRows } from './ltr-features';
import { featureColumns, featuresInUse, scoreModel } from './ltr-model';
import type { LearnedRankingModel } from './ltr-model';

/** The reranker of a fitted model: features from the index's evidence, a linear or trees score, no model call. */
export class LearnedReranker implements EvidenceReranker {
  readonly modelId: string;
  readonly needsQueryVector: boolean;
  private readonly columns: number[];

  constructor(readonly model: LearnedRankingModel) {
    this.modelId = `ltr:${model.version}`;
    this.columns = featureColumns(model);
    this.needsQueryVector = featuresInUse(model).some((name) => DENSE_LTR_FEATURES.includes(name));
  }

  rerankWithEvidence(input: EvidenceRerankInput): RerankExplanation[] {
    const rows = ltrFeatureRows(input.candidates, input.evidence);
    return rows.map((row) => {
      const { score, contributions } = scoreModel(
        this.model,
        this.columns.map((c) => row[c]),
      );
      return {
        score,
        contributions: Object.fromEntries(
          this.model.features.map((name, i) => [name, Math.round(contributions[i] * 1e4) / 1e4]),
        ),
      };
    });
  }
}

/**
 * Records every candidate's feature row and keeps the fused order (its score is minus the fused rank):
 * what a fitting run searches with, so the rows are exactly what the fitted reranker will read.
 */
export class LtrFeatureRecorder implements EvidenceReranker {
  readonly modelId = 'ltr:feature-recorder';
  /** With `dense`, the search embeds the query so that the dense features are read too. */
  readonly needsQueryVector: boolean;

  constructor(options: { dense?: boolean } = {}) {
    this.needsQueryVector = options.dense ?? false;
  }

  readonly recorded: {
    query: string;
    chunkIds: string[];
    /** Each candidate's document: its external id (a BEIR corpus id) when it has one, else its id. */
    documents: string[];
    /** Each candidate's document id in this index (what a question bank's expected sources name). */
    documentIds: string[];
    rows: number[][];
  }[] = [];

  rerankWithEvidence(input: EvidenceRerankInput): RerankExplanation[] {
    this.recorded.push({
      query: input.query,
      chunkIds: input.candidates.map((c) => c.chunkId),
      documents: input.candidates.map((c) => c.externalId ?? c.documentId),
      documentIds: input.candidates.map((c) => c.documentId),
      rows: ltrFeatureRows(input.candidates, input.evidence),
    });
    return input.candidates.map((c) => ({ score: -c.fusedRank, contributions: {} }));
  }
}
