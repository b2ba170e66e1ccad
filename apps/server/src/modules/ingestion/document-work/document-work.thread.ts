import 'reflect-metadata';
import { parentPort } from 'node:worker_threads';
import { loadLanguageDetector } from '../../../providers/eld-language-detector';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import { prepareDocument } from './prepare-document';
import type { WorkReply, WorkRequest } from './document-work.messages';

/** A thread of the document work pool: prepares one document at a time, as the pool hands them over. */
const port = parentPort;
if (!port) throw new Error('document-work.thread runs as a worker thread of DocumentWorkPool');

// The parsers are loaded, and the language detector (its n-gram tables take about a second): a
// document's time budget starts once the thread says it is ready, not while it boots.
// (A detector that cannot load rejects unhandled: the thread dies and the pool reports it could not start.)
void loadLanguageDetector().then(() => port.postMessage({ ready: true } satisfies WorkReply));

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
