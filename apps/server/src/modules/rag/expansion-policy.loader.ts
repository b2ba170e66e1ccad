import { parseExpansionPolicy } from '@lumina/rag';
import type { ExpansionPolicy } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { loadModelFile, loadShippedModel } from '../../config/model-file';

/**
 * The adaptive-expansion policy the project ships (models/adaptive-scifact-v1.json), fitted on SciFact
 * TRAIN only by `npm run eval -- --suite adaptive --fit` with the scripted LLM writing the branches. Its
 * model reads the original query's BM25 top passages only, so it holds for any embedder.
 */
const DEFAULT_EXPANSION_POLICY: ExpansionPolicy = loadShippedModel(
  'adaptive-scifact-v1.json',
  parseExpansionPolicy,
);

/**
 * The policy adaptive expansion and HyDE decide with: EXPANSION_POLICY_FILE when set (read and checked
 * once; a bad file stops the boot with its reason), "off" for none (adaptive branches always run), else
 * the policy the project ships.
 */
export function expansionPolicyFor(env: Pick<Env, 'EXPANSION_POLICY_FILE'>): ExpansionPolicy | null {
  const file = env.EXPANSION_POLICY_FILE;
  if (!file) return DEFAULT_EXPANSION_POLICY;
  if (file === 'off') return null;
  return loadModelFile('EXPANSION_POLICY_FILE', file, parseExpansionPolicy);
}
