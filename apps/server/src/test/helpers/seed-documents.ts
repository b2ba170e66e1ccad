import { createHash } from 'node:crypto';
import type { ChunkingSettings, EmbeddingProvider, TextFormat } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { IndexingService } from '../../modules/ingestion/indexing.service';

export interface SeedDocument {
  title: string;
  text: string;
  format?: TextFormat;
}

/** Insert documents and index them through the app's IndexingService; returns their ids in order. */
export async function seedDocuments(
  dataSource: DataSource,
  embedder: EmbeddingProvider | null,
  documents: SeedDocument[],
  chunking: ChunkingSettings = { unit: 'chunk', maxChars: 400, overlapChars: 60 },
): Promise<string[]> {
  const ids: string[] = [];
  for (const document of documents) {
    const [row] = await dataSource.query(
      `INSERT INTO documents (title, content_hash, status) VALUES ($1, $2, 'chunking') RETURNING id`,
      [
        document.title,
        createHash('sha256')
          .update(document.title + document.text)
          .digest('hex'),
      ],
    );
    ids.push(row.id);
  }
  await new IndexingService(dataSource, embedder, chunking).indexDocuments(
    documents.map((document, i) => ({
      documentId: ids[i],
      title: document.title,
      text: document.text,
      format: document.format ?? 'plain',
    })),
  );
  return ids;
}

/** A small corpus about running a database, with headings, for search tests. */
export const RUNBOOK_CORPUS: SeedDocument[] = [
  {
    title: 'Database runbook',
    format: 'markdown',
    text:
      '# Failover\n\nPromote the standby replica with pg_ctl promote. Then repoint the application ' +
      'connection string to the new primary.\n\n# Backups\n\nNightly base backups run at 02:00 UTC. ' +
      'Write-ahead log archiving keeps point-in-time recovery possible for seven days.',
  },
  {
    title: 'Cache guide',
    text:
      'Redis holds the job queues and the rate-limit counters. Evictions are disabled so that no job is lost. ' +
      'Memory alarms fire at eighty percent of the configured maximum.',
  },
  {
    title: 'Onboarding',
    text:
      'New engineers get access to the staging cluster on their first day. Production access needs a second ' +
      'approval from the on-call lead.',
  },
  {
    title: 'Incident review',
    text:
      'The outage started when the primary database ran out of disk. Failover to the replica took four minutes ' +
      'because the connection string was hard-coded in two services.',
  },
];
