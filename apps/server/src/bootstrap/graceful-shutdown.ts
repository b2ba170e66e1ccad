import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { ChatStreams } from '../modules/chat/chat-streams';
import { httpDrainOf } from './http-drain';

/** How long other requests in flight (searches, uploads) may take to finish once the chat streams ended. */
export const REQUEST_GRACE_MS = 3_000;

/**
 * How long idle kept-alive connections stay open after SIGTERM, so that a request a client already sent
 * on one (its pool picked it before it could see the shutdown) is answered 503, not met by a reset.
 */
export const KEEP_ALIVE_NOTICE_MS = 1_000;

/**
 * The HTTP side of a graceful stop (SIGTERM): stop listening and answer new requests on open
 * connections (idle kept-alive ones included, for at least KEEP_ALIVE_NOTICE_MS) with 503 and
 * `Connection: close`; end each open chat stream with an `error` event after storing the answer so far
 * (status cancelled); give other requests in flight REQUEST_GRACE_MS to finish, then close what is
 * left (e.g. progress streams). The caller then closes the app (workers, queues) and the database.
 */
export async function drainHttp(app: INestApplication): Promise<{ chatStreams: number; cutOff: number }> {
  const server = app.getHttpServer() as Server;
  const drain = httpDrainOf(app);
  drain?.begin();
  // No new connections. http.Server#close would also close the idle kept-alive ones at once, and a
  // request already on its way on one would get no answer: stop listening only (app.close() waits for
  // this server to finish closing).
  NetServer.prototype.close.call(server);
  const notice = new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_NOTICE_MS).unref());
  const streams = app.get(ChatStreams, { strict: false });
  const chatStreams = streams.size;
  await streams.endAll();
  const [settled] = await Promise.all([drain ? drain.settled(REQUEST_GRACE_MS) : true, notice]);
  const cutOff = settled ? 0 : (drain?.inFlight ?? 0);
  server.closeAllConnections();
  return { chatStreams, cutOff };
}
