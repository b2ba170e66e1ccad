import { Injectable } from '@nestjs/common';
import type { ExpectedSource } from '@lumina/shared';
import { CorpusRepository } from './repositories/corpus.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A source as written by a user or a file: a document by id or external id, and/or a chunk id. */
export interface SourceReference {
  documentId?: string;
  chunkId?: string;
  grade?: number;
}

export type ResolvedSources = { ok: true; sources: ExpectedSource[] } | { ok: false; reasons: string[] };

export interface ResolveOptions {
  /** The bank's collection: only its documents and chunks can be expected sources. */
  collectionId: string;
  /** Look external ids up only among documents of this dataset (documents.metadata.dataset). */
  dataset?: string;
}

/**
 * Turns expected-source references into stored sources, among the documents of the bank's collection: a document named by its id or by its
 * external id (documents.external_id) becomes its id; a chunk keeps its id and gains its document's.
 * A reference to a document or chunk that does not exist, or an external id two documents share, is
 * a reason to reject the item, never silently kept.
 */
@Injectable()
export class ExpectedSourceResolver {
  constructor(private readonly corpus: CorpusRepository) {}

  async resolve(items: SourceReference[][], options: ResolveOptions): Promise<ResolvedSources[]> {
    const refs = items.flat();
    const documentRefs = [...new Set(refs.flatMap((r) => (r.documentId ? [r.documentId] : [])))];
    const chunkRefs = [
      ...new Set(refs.flatMap((r) => (r.chunkId && UUID.test(r.chunkId) ? [r.chunkId] : []))),
    ];

    const { collectionId } = options;
    const byId = await this.corpus.existingDocumentIds(
      documentRefs.filter((ref) => UUID.test(ref)),
      collectionId,
    );
    const byExternal = await this.corpus.documentsByExternalId(
      documentRefs.filter((ref) => !byId.has(ref.toLowerCase())),
      options.dataset ?? null,
      collectionId,
    );
    const chunkDocument = await this.corpus.documentsOfChunks(chunkRefs, collectionId);

    return items.map((sources) => {
      const reasons: string[] = [];
      const resolved: ExpectedSource[] = [];
      const seen = new Set<string>();
      for (const ref of sources) {
        if (!ref.documentId && !ref.chunkId) {
          reasons.push('an expected source needs a documentId or a chunkId');
          continue;
        }
        let documentId: string | undefined;
        if (ref.documentId) {
          const lower = ref.documentId.toLowerCase();
          if (byId.has(lower)) documentId = lower;
          else {
            const matches = byExternal.get(ref.documentId) ?? [];
            if (matches.length === 1) documentId = matches[0];
            else if (matches.length > 1) {
              reasons.push(
                `document "${ref.documentId}" is ambiguous: ${matches.length} documents have that external id` +
                  (options.dataset ? '' : ' (name the dataset)'),
              );
              continue;
            } else {
              reasons.push(
                `unknown document "${ref.documentId}" (no document of the bank's collection has that id or external id)`,
              );
              continue;
            }
          }
        }
        if (ref.chunkId) {
          const owner = chunkDocument.get(ref.chunkId.toLowerCase());
          if (!owner) {
            reasons.push(`unknown chunk "${ref.chunkId}" (not a passage of the bank's collection)`);
            continue;
          }
          if (documentId && owner !== documentId) {
            reasons.push(`chunk "${ref.chunkId}" does not belong to document "${ref.documentId}"`);
            continue;
          }
          documentId = owner;
        }
        const source: ExpectedSource = { documentId };
        if (ref.chunkId) source.chunkId = ref.chunkId.toLowerCase();
        if (ref.grade !== undefined) source.grade = ref.grade;
        const key = `${source.documentId}|${source.chunkId ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        resolved.push(source);
      }
      return reasons.length ? { ok: false, reasons } : { ok: true, sources: resolved };
    });
  }
}
