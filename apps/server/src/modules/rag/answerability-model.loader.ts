import { DEFAULT_ANSWERABILITY_MODEL, parseAnswerabilityModel } from '@lumina/rag';
import type { AnswerabilityModel } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { loadModelFile } from '../../config/model-file';

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
