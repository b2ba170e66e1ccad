import {
  DEFAULT_ANSWERABILITY_MODEL,
  HYBRID_MINILM_ANSWERABILITY_MODEL,
  parseAnswerabilityModel,
} from '@lumina/rag';
import type { AnswerabilityModel, SearchOptions } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { loadModelFile } from '../../config/model-file';
import { MINILM_L6_V2_INT8 } from '../../providers/local-models/catalogue';

/**
 * The answerability models the project ships for one embedder's searches, by ranker: fitted on TRAIN
 * splits over that ranker's searches (docs/measurements.md has the runs). A ranker not listed decides with
 * DEFAULT_ANSWERABILITY_MODEL, fitted on BM25's.
 */
export const SHIPPED_ANSWERABILITY_MODELS: Record<string, SearchOptions['answerabilityModelsByRanker']> = {
  [MINILM_L6_V2_INT8.id]: { hybrid: HYBRID_MINILM_ANSWERABILITY_MODEL },
};

/**
 * The answerability model searches decide with: ANSWERABILITY_MODEL_FILE when set (read and checked once;
 * a bad file stops the boot with its reason), "off" for none, else the model the project ships.
 */
export function answerabilityModelFor(env: Pick<Env, 'ANSWERABILITY_MODEL_FILE'>): AnswerabilityModel | null {
  const file = env.ANSWERABILITY_MODEL_FILE;
  if (!file) return DEFAULT_ANSWERABILITY_MODEL;
  if (file === 'off') return null;
  return loadModelFile('ANSWERABILITY_MODEL_FILE', file, parseAnswerabilityModel);
}

/**
 * The models of every ranker for searches with the embedder `embedderId`: a model file (or "off") decides
 * every ranker's searches; else the project's models, per ranker where one was fitted with this embedder.
 */
export function answerabilityModelsFor(
  env: Pick<Env, 'ANSWERABILITY_MODEL_FILE'>,
  embedderId: string,
): Pick<SearchOptions, 'answerabilityModel' | 'answerabilityModelsByRanker'> {
  return {
    answerabilityModel: answerabilityModelFor(env),
    answerabilityModelsByRanker: env.ANSWERABILITY_MODEL_FILE
      ? {}
      : (SHIPPED_ANSWERABILITY_MODELS[embedderId] ?? {}),
  };
}
