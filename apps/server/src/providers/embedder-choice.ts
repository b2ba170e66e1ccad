import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MINILM_L6_V2_INT8 } from './local-models/catalogue';
import type { SentenceEncoderSpec } from './local-models/catalogue';
import { modelDir, modelState } from './local-models/model-files';

/** The embedders the server can run; `auto` (the default) is resolved to one of them at boot. */
export type EmbeddingsProviderName = 'local' | 'minilm' | 'openai' | 'hash';

export interface EmbedderChoice {
  readonly provider: EmbeddingsProviderName;
  /**
   * Set when `auto` could not take the in-process sentence encoder: why, in one sentence that says what
   * serves instead and how to mend it (`/health` and the settings drawer show it).
   */
  readonly fallback: string | null;
}

/** The default in-process encoder: all-MiniLM-L6-v2 (SciFact test nDCG@10 0.643 dense, 0.715 hybrid). */
export const DEFAULT_SENTENCE_ENCODER: SentenceEncoderSpec = MINILM_L6_V2_INT8;

/** Verified folders by their files' sizes and modification times: a boot hashes 23 MB once, not per read. */
const verified = new Map<string, boolean>();

function filesReady(modelsDir: string, spec: SentenceEncoderSpec): boolean {
  const dir = modelDir(modelsDir, spec);
  const names = spec.wheels.flatMap((wheel) => wheel.files.map((file) => file.to));
  let key: string;
  try {
    key = `${dir}|${names
      .map((name) => {
        const stat = statSync(join(dir, name));
        return `${name}:${stat.size}:${stat.mtimeMs}`;
      })
      .join('|')}`;
  } catch {
    return false;
  }
  const known = verified.get(key);
  if (known !== undefined) return known;
  const ready = modelState(modelsDir, spec).ready;
  verified.set(key, ready);
  return ready;
}

/**
 * What EMBEDDINGS_PROVIDER=auto means on this machine: an embeddings endpoint when one is configured, else
 * the default sentence encoder when its files are in MODELS_DIR with their pinned sha256, else Universal
 * Sentence Encoder lite (shipped in an npm package, so always there), saying why. Any other value is kept.
 */
export function chooseEmbedder(
  input: {
    EMBEDDINGS_PROVIDER: EmbeddingsProviderName | 'auto';
    EMBEDDINGS_BASE_URL?: string;
    MODELS_DIR: string;
  },
  encoder: SentenceEncoderSpec = DEFAULT_SENTENCE_ENCODER,
): EmbedderChoice {
  if (input.EMBEDDINGS_PROVIDER !== 'auto') return { provider: input.EMBEDDINGS_PROVIDER, fallback: null };
  if (input.EMBEDDINGS_BASE_URL !== undefined) return { provider: 'openai', fallback: null };
  if (filesReady(input.MODELS_DIR, encoder)) return { provider: 'minilm', fallback: null };
  return {
    provider: 'local',
    fallback:
      `${encoder.id} is not in ${modelDir(input.MODELS_DIR, encoder)} with its pinned sha256 ` +
      '(run npm run models:fetch, then restart): dense search runs on Universal Sentence Encoder lite, ' +
      'too weak to move the hybrid ranking, so keywords carry it',
  };
}
