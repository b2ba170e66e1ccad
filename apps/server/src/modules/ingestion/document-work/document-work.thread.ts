import 'reflect-metadata';
import { parentPort } from 'node:worker_threads';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import { prepareDocument } from './prepare-document';
import type { WorkReply, WorkRequest } from './document-work.messages';

/** A thread of the document work pool: prepares one document at a time, as the pool hands them over. */
const port = parentPort;
if (!port) throw new Error('document-work.thread runs as a worker thread of DocumentWorkPool');

// The parsers are loaded: a document's time budget starts now, not while the thread boots.
port.postMessage({ ready: true } satisfies WorkReply);

port.on('message', (message: WorkRequest) => {
  prepareDocument(message.request).then(
    (prepared) => port.postMessage({ id: message.id, prepared } satisfies WorkReply),
    (error: unknown) =>
      port.postMessage({
        id: message.id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          unreadable: error instanceof UnreadableDocumentError,
        },
      } satisfies WorkReply),
  );
});
