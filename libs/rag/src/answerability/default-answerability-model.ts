import { featureProbeModel } from './answerability-model';
import type { AnswerabilityModel } from './answerability-model';

/**
 * The answerability model the project ships, fitted by `npm run eval -- --suite answerability --fit` on
 * the TRAIN splits only (see the README's answerability section for the command, the data and the
 * trade-off curve). Replace it per installation with ANSWERABILITY_MODEL_FILE.
 */
export const DEFAULT_ANSWERABILITY_MODEL: AnswerabilityModel = featureProbeModel();
