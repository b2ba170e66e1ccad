import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedOpenAiServer } from './testing-llm';
import { startScriptedLlm } from './scripted-llm';
import { startStack, WORKSPACE_ROOT } from './stack';

declare global {
  var __LUMINA_E2E_LLM__: ScriptedOpenAiServer | undefined;
}

/** Starts the scripted LLM, the API server and the web app once for every browser spec. */
export default async function globalSetup(): Promise<void> {
  mkdirSync(path.join(WORKSPACE_ROOT, 'tmp'), { recursive: true });
  const started = Date.now();
  const llm = await startScriptedLlm();
  globalThis.__LUMINA_E2E_LLM__ = llm;
  const stack = await startStack(llm.origin);
  console.log(
    `\ne2e stack up in ${((Date.now() - started) / 1000).toFixed(1)} s: web ${stack.webUrl}, API ${stack.apiUrl}, ` +
      `scripted LLM ${stack.llmUrl}`,
  );
  if (stack.missing.length) {
    console.log(
      `The server lacks these endpoints of the web app's client: ${stack.missing.join(', ')}. ` +
        'The UI hides or explains them; specs that need one are skipped with its name.',
    );
  }
}
