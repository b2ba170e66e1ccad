import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { ChatStreams } from '../modules/chat/chat-streams';
import { httpDrainOf } from './http-drain';

/** How long other requests in flight (searches, uploads) may take to finish once the chat streams ended. */
export const REQUEST_GRACE_MS = 3_000;

/**
 * The HTTP side of a graceful stop (SIGTERM): stop listening and answer new requests on open
 * connections with 503; end each open chat stream with an `error` event after storing the answer so
 * far (status cancelled); give other requests in flight REQUEST_GRACE_MS to finish, then close what is
 * left (e.g. progress streams). The caller then closes the app (workers, queues) and the database.
 */
export async function drainHttp(app: INestApplication): Promise<{ chatStreams: number; cutOff: number }> {
  const server = app.getHttpServer() as Server;
  const drain = httpDrainOf(app);
  drain?.begin();
  server.close(); // no new connections; app.close() waits for this server to finish closing
  server.closeIdleConnections();
  const streams = app.get(ChatStreams, { strict: false });
  const chatStreams = streams.size;
  await streams.endAll();
  const settled = drain ? await drain.settled(REQUEST_GRACE_MS) : true;
  const cutOff = settled ? 0 : (drain?.inFlight ?? 0);
  server.closeAllConnections();
  return { chatStreams, cutOff };
}
