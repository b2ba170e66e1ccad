import { parseAnswerabilityModel } from '@lumina/rag';
import type { AnswerabilityModel, SearchOptions } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { loadModelFile, loadShippedModel } from '../../config/model-file';
import { MINILM_L6_V2_INT8 } from '../../providers/local-models/catalogue';

/**
 * The answerability model the project ships (models/answerability-lex-v1.json), fitted on TRAIN splits
 * only by `npm run eval -- --suite answerability --fit` over BM25's searches (docs/measurements.md has
 * the command, the test-split figures and the trade-off curve). Lexical features only: it decides every
 * search whose ranker has no model of its own for the embedder.
 */
const DEFAULT_ANSWERABILITY_MODEL: AnswerabilityModel = loadShippedModel(
  'answerability-lex-v1.json',
  parseAnswerabilityModel,
);

/**
 * The answerability models the project ships for one embedder's searches, by ranker, fitted the same way
 * over that ranker's searches: MiniLM's hybrid (convex fusion, dense weight 0.7) puts other passages on
 * top than BM25 does, so the lexical features read lower there
 * (models/answerability-lex-hybrid-minilm-v2.json). A hybrid routed to keywords alone, and a ranker not
 * listed, decide with DEFAULT_ANSWERABILITY_MODEL.
 */
export const SHIPPED_ANSWERABILITY_MODELS: Record<string, SearchOptions['answerabilityModelsByRanker']> = {
  [MINILM_L6_V2_INT8.id]: {
    hybrid: loadShippedModel('answerability-lex-hybrid-minilm-v2.json', parseAnswerabilityModel),
  },
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
