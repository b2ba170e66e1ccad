import { existsSync } from 'node:fs';
import { killLeftovers, readStack, removeDataDir, STACK_FILE, stopProcesses } from './stack';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the API server and the web app, then the scripted LLM; removes the database folder. */
export default async function globalTeardown(): Promise<void> {
  if (existsSync(STACK_FILE)) {
    const stack = readStack();
    stopProcesses(stack.pids);
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline && stack.pids.some(alive)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    killLeftovers(stack.pids.filter(alive));
    removeDataDir(stack.dataDir);
  }
  await globalThis.__LUMINA_E2E_LLM__?.close();
}
