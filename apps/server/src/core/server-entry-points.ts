import { join } from 'node:path';

/** The built server's processes, for a tool that starts them as children: the HTTP API and the workers. */
export const SERVER_ENTRY_POINTS = {
  api: join(__dirname, '..', 'main.js'),
  worker: join(__dirname, '..', 'worker.js'),
} as const;
