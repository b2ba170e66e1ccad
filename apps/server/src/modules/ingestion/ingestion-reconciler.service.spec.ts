import type { DocumentStatus } from '@lumina/shared';
import { validateEnv } from '../../config/env.schema';
import type { CollectionRepository } from '../collections/repositories/collection.repository';
import type { IngestionQueue } from './ingestion-queue.service';
import { IngestionReconciler, RECONCILE_GRACE_MS } from './ingestion-reconciler.service';
import type { DocumentRepository, StrandedDocument } from './repositories/document.repository';
import type { EmbedderState, EmbedderStateRepository } from './repositories/embedder-state.repository';

/** The one read the reconciler makes of the documents. */
class StrandedDocuments implements Pick<DocumentRepository, 'stranded'> {
  documents: StrandedDocument[] = [];
  asked: { graceMs: number; limit: number }[] = [];

  async stranded(graceMs: number, limit: number): Promise<StrandedDocument[]> {
    this.asked.push({ graceMs, limit });
    return this.documents.slice(0, limit);
  }
}

/** A queue that already holds the jobs of `pending` and queues the rest, or fails like an absent Redis. */
class FakeQueue implements Pick<
  IngestionQueue,
  'requeueMissing' | 'requeueCollectionDeletions' | 'enqueueReembed'
> {
  pending = new Set<string>();
  down: string | null = null;
  reembeds: string[] = [];

  async enqueueReembed(model: string): Promise<{ jobId: string; alreadyQueued: boolean }> {
    if (this.down) throw new Error(this.down);
    const jobId = `reembed-${model}`;
    const alreadyQueued = this.pending.has(jobId);
    this.pending.add(jobId);
    if (!alreadyQueued) this.reembeds.push(model);
    return { jobId, alreadyQueued };
  }

  async requeueCollectionDeletions(collectionIds: readonly string[]): Promise<string[]> {
    if (this.down) throw new Error(this.down);
    return collectionIds.filter((id) => !this.pending.has(id));
  }

  async requeueMissing(documents: { id: string }[]): Promise<string[]> {
    if (this.down) throw new Error(this.down);
    return documents.filter((d) => !this.pending.has(d.id)).map((d) => d.id);
  }
}

/** Collections marked as being deleted. */
class DeletingCollections implements Pick<CollectionRepository, 'strandedDeletions'> {
  ids: string[] = [];

  async strandedDeletions(_graceMs: number, limit: number): Promise<string[]> {
    return this.ids.slice(0, limit);
  }
}

/** The embedder_state row: a re-embed pending after a switch, or none. */
class FakeEmbedderState implements Pick<EmbedderStateRepository, 'read'> {
  state: EmbedderState | null = null;

  async read(): Promise<EmbedderState | null> {
    return this.state;
  }
}

function setUp() {
  const embedderState = new FakeEmbedderState();
  const documents = new StrandedDocuments();
  const queue = new FakeQueue();
  const collections = new DeletingCollections();
  const reconciler = new IngestionReconciler(
    documents as unknown as DocumentRepository,
    queue as unknown as IngestionQueue,
    validateEnv({ NODE_ENV: 'test' }),
    collections as unknown as CollectionRepository,
    embedderState as unknown as EmbedderStateRepository,
    { modelId: 'model-b', dimension: 3, maxInputChars: 1000, embed: async () => [] },
  );
  const logged: string[] = [];
  (reconciler as unknown as { logger: object }).logger = {
    warn: (line: string) => logged.push(line),
    log: (line: string) => logged.push(line),
  };
  const repairs: [DocumentStatus, number][] = [];
  reconciler.onRepair((status, count) => repairs.push([status, count]));
  return { documents, queue, collections, embedderState, reconciler, logged, repairs };
}

const doc = (id: string, status: DocumentStatus): StrandedDocument => ({
  id,
  status,
});

describe('IngestionReconciler', () => {
  it('queues again the unfinished documents without a job, and counts the repairs by status', async () => {
    const { documents, queue, reconciler, logged, repairs } = setUp();
    documents.documents = [
      doc('a', 'queued'),
      doc('b', 'embedding'),
      doc('c', 'queued'),
      doc('d', 'parsing'),
    ];
    queue.pending.add('d');
    expect(await reconciler.reconcile()).toEqual({ checked: 4, requeued: 3 });
    expect(documents.asked).toEqual([{ graceMs: RECONCILE_GRACE_MS, limit: 1000 }]);
    expect(repairs).toEqual([
      ['queued', 2],
      ['embedding', 1],
    ]);
    expect(logged).toEqual([
      'reconciler: 3 of 4 unfinished documents had no job and were queued again (2 queued, 1 embedding)',
    ]);
  });

  it('queues again the deletion of a collection marked as being deleted whose job is gone', async () => {
    const { queue, collections, reconciler, logged } = setUp();
    collections.ids = ['kept', 'lost'];
    queue.pending.add('kept');
    expect(await reconciler.reconcile()).toEqual({ checked: 0, requeued: 0 });
    expect(logged).toEqual([
      'reconciler: 1 collection(s) being deleted had no deletion job and got one again',
    ]);
  });

  it('queues the re-embed after a switch of embedder until it has finished, once, for this model only', async () => {
    const { queue, embedderState, reconciler, logged } = setUp();
    await reconciler.reconcile();
    expect(queue.reembeds).toEqual([]);
    const pending = { reembedPending: true, reembedDone: 0, reembedTotal: 0, changedAt: new Date() };
    // A switch recorded by another configuration (this process embeds with model-b): not this one's job.
    embedderState.state = { model: 'model-a', ...pending };
    await reconciler.reconcile();
    expect(queue.reembeds).toEqual([]);
    embedderState.state = { model: 'model-b', ...pending };
    await reconciler.reconcile();
    await reconciler.reconcile();
    expect(queue.reembeds).toEqual(['model-b']);
    expect(logged).toEqual(['reconciler: queued the re-embed of the chunks with model-b']);
    embedderState.state = { model: 'model-b', ...pending, reembedPending: false };
    queue.pending.clear();
    await reconciler.reconcile();
    expect(queue.reembeds).toEqual(['model-b']);
  });

  it('joins a pass already running instead of starting a second one', async () => {
    const { documents, reconciler } = setUp();
    documents.documents = [doc('a', 'queued')];
    const [first, second] = [reconciler.reconcile(), reconciler.reconcile()];
    expect(first).toBe(second);
    await first;
    expect(documents.asked).toHaveLength(1);
  });

  it('never throws: a failing pass is logged once per reason, and its recovery once', async () => {
    const { documents, queue, reconciler, logged } = setUp();
    documents.documents = [doc('a', 'queued')];
    queue.down = 'connect ECONNREFUSED';
    expect(await reconciler.reconcile()).toEqual({ checked: 0, requeued: 0 });
    expect(await reconciler.reconcile()).toEqual({ checked: 0, requeued: 0 });
    queue.down = null;
    queue.pending.add('a');
    expect(await reconciler.reconcile()).toEqual({ checked: 1, requeued: 0 });
    expect(logged).toEqual(['reconciler: pass skipped: connect ECONNREFUSED', 'reconciler: running again']);
  });
});
