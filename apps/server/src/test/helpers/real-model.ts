import { loadEnv } from '../../config/load-env';
import type { LocalModelSpec } from '../../providers/local-models/catalogue';
import { modelState } from '../../providers/local-models/model-files';

/**
 * `describe` when the model's files are in MODELS_DIR (checked by sha256), else `describe.skip` with a
 * warning that says how to get them. In CI (tools/test-all.sh fetches the models before the tests) a
 * missing model fails the suite instead: the suites that load real models must run there.
 */
export function withRealModel(spec: LocalModelSpec): { describe: jest.Describe; modelsDir: string } {
  const { MODELS_DIR } = loadEnv();
  const ready = modelState(MODELS_DIR, spec).ready;
  if (!ready && (globalThis as { LUMINA_CI?: boolean }).LUMINA_CI) {
    throw new Error(`${spec.id} is not in ${MODELS_DIR}: run \`npm run models:fetch\``);
  }
  if (!ready) console.warn(`skipped: ${spec.id} is not in ${MODELS_DIR} (npm run models:fetch)`);
  return { describe: ready ? describe : describe.skip, modelsDir: MODELS_DIR };
}
