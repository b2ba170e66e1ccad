import { readFileSync } from 'node:fs';
import { DEFAULT_EXPANSION_POLICY, parseExpansionPolicy } from '@lumina/rag';
import type { ExpansionPolicy } from '@lumina/rag';
import type { Env } from '../../config/env.schema';

const loaded = new Map<string, ExpansionPolicy>();

/**
 * The policy adaptive expansion and HyDE decide with: EXPANSION_POLICY_FILE when set (read and checked
 * once; a bad file stops the boot with its reason), "off" for none (adaptive branches always run), else
 * the policy the project ships.
 */
export function expansionPolicyFor(env: Pick<Env, 'EXPANSION_POLICY_FILE'>): ExpansionPolicy | null {
  const file = env.EXPANSION_POLICY_FILE;
  if (!file) return DEFAULT_EXPANSION_POLICY;
  if (file === 'off') return null;
  let policy = loaded.get(file);
  if (!policy) {
    try {
      policy = parseExpansionPolicy(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      throw new Error(
        `EXPANSION_POLICY_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    loaded.set(file, policy);
  }
  return policy;
}
