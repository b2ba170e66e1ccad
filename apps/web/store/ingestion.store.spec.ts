import type { DocumentDetail, DocumentStatus } from '@lumina/shared';
import { ApiError } from '../lib/api-errors';
import type { DocumentEventView } from '../lib/api/documents';
import { createIngestionStore, watchDocument } from './ingestion.store';

const progress = (status: DocumentStatus, done = 0, total = 0): DocumentEventView => ({
  status,
  stage: status,
  done,
  total,
  error: status === 'failed' ? 'The file has no text.' : null,
  chunkCount: status === 'indexed' ? total : null,
});

function document(status: DocumentStatus): DocumentDetail {
  return {
    id: 'd1',
    collectionId: 'col-1',
    title: 'Handbook',
    sourceName: null,
    mimeType: null,
    format: 'md',
    externalId: null,
    status,
    error: null,
    chunkCount: status === 'indexed' ? 4 : 0,
    byteSize: 10,
    language: null,
    createdAt: '',
    updatedAt: '',
    jobId: null,
    progress: null,
  };
}

describe('watchDocument', () => {
  it('follows the event stream to the end and reports the final state once', async () => {
    const store = createIngestionStore();
    store.getState().track('d1', 'Handbook', 'queued');
    const seen: string[] = [];
    const finished = new Promise<string>((resolve) =>
      watchDocument(
        {
          async *documentEvents() {
            for (const event of [
              progress('parsing'),
              progress('embedding', 2, 4),
              progress('embedding', 4, 4),
              progress('indexed', 4, 4),
            ]) {
              seen.push(`${event.status}:${event.done}`);
              yield event;
            }
          },
          getDocument: () => Promise.reject(new Error('not used')),
        },
        store,
        'd1',
        (final) => resolve(`${final.status}:${final.chunkCount}`),
      ),
    );
    expect(await finished).toBe('indexed:4');
    expect(seen).toEqual(['parsing:0', 'embedding:2', 'embedding:4', 'indexed:4']);
    expect(store.getState().documents.d1).toMatchObject({ status: 'indexed', via: 'idle' });
  });

  it('falls back to polling when the server has no event stream', async () => {
    const store = createIngestionStore();
    store.getState().track('d1', 'Handbook', 'queued');
    const answers: DocumentStatus[] = ['embedding', 'failed'];
    const finished = new Promise<string>((resolve) =>
      watchDocument(
        {
          // eslint-disable-next-line require-yield
          async *documentEvents() {
            throw new ApiError('not_found', 'missing', 'GET /documents/:id/events → 404', 404, true);
          },
          getDocument: async () => ({
            ...document(answers.shift() ?? 'failed'),
            error: 'The file has no text.',
          }),
        },
        store,
        'd1',
        (final) => resolve(`${final.status}|${final.error}`),
      ),
    );
    expect(await finished).toBe('failed|The file has no text.');
  });

  it('does nothing more after it is stopped', async () => {
    const store = createIngestionStore();
    store.getState().track('d1', 'Handbook', 'queued');
    let settled = false;
    const stop = watchDocument(
      {
        async *documentEvents(_id, options) {
          yield progress('parsing');
          await new Promise((resolve) => options?.signal?.addEventListener('abort', resolve));
        },
        getDocument: async () => document('indexed'),
      },
      store,
      'd1',
      () => {
        settled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    expect(store.getState().documents.d1.status).toBe('parsing');
  });
});
