import type { PrepareRequest, PreparedDocument } from './prepare-document';

/** What the pool posts to a thread. */
export interface WorkRequest {
  id: number;
  request: PrepareRequest;
}

/** What a thread posts back: once that it is ready, then per request the prepared document or why not. */
export type WorkReply =
  | { ready: true }
  | { id: number; prepared: PreparedDocument }
  | { id: number; error: { message: string; unreadable: boolean } };
