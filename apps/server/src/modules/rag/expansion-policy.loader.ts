import { DEFAULT_EXPANSION_POLICY, parseExpansionPolicy } from '@lumina/rag';
import type { ExpansionPolicy } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { loadModelFile } from '../../config/model-file';

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
