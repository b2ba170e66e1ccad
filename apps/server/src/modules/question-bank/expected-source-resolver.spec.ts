import { ExpectedSourceResolver } from './expected-source-resolver';
import type { CorpusRepository } from './repositories/corpus.repository';

const DOC_A = '0a000000-0000-4000-8000-00000000000a';
const DOC_B = '0b000000-0000-4000-8000-00000000000b';
const DOC_C = '0c000000-0000-4000-8000-00000000000c';
const CHUNK_A1 = 'a1000000-0000-4000-8000-0000000000a1';
const CHUNK_B1 = 'b1000000-0000-4000-8000-0000000000b1';
const DOC_ELSEWHERE = '0e000000-0000-4000-8000-00000000000e';
const CHUNK_ELSEWHERE = 'e1000000-0000-4000-8000-0000000000e1';
/** The bank's collection, and another one. */
const BANK_COLLECTION = 'c0000000-0000-4000-8000-0000000000c0';
const OTHER_COLLECTION = 'c1000000-0000-4000-8000-0000000000c1';
const inBank = { collectionId: BANK_COLLECTION };

/**
 * The corpus reads of CorpusRepository over a few documents and chunks in memory. Ids compare as
 * PostgreSQL's uuid type does (any case in, lower case out).
 */
class InMemoryCorpus implements Pick<
  CorpusRepository,
  'existingDocumentIds' | 'documentsByExternalId' | 'documentsOfChunks'
> {
  readonly documents = [
    { id: DOC_A, externalId: 'doc-a', dataset: 'scifact', collection: BANK_COLLECTION },
    { id: DOC_B, externalId: 'shared', dataset: 'scifact', collection: BANK_COLLECTION },
    { id: DOC_C, externalId: 'shared', dataset: 'nfcorpus', collection: BANK_COLLECTION },
    { id: DOC_ELSEWHERE, externalId: 'elsewhere', dataset: 'scifact', collection: OTHER_COLLECTION },
  ];
  readonly chunks = new Map([
    [CHUNK_A1, DOC_A],
    [CHUNK_B1, DOC_B],
    [CHUNK_ELSEWHERE, DOC_ELSEWHERE],
  ]);

  private inCollection(collectionId: string | null) {
    return this.documents.filter((d) => collectionId === null || d.collection === collectionId);
  }

  async existingDocumentIds(ids: string[], collectionId: string | null = null): Promise<Set<string>> {
    const asked = new Set(ids.map((id) => id.toLowerCase()));
    return new Set(
      this.inCollection(collectionId)
        .filter((d) => asked.has(d.id))
        .map((d) => d.id),
    );
  }

  async documentsByExternalId(
    externalIds: string[],
    dataset: string | null,
    collectionId: string | null = null,
  ): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const d of this.inCollection(collectionId)) {
      if (!externalIds.includes(d.externalId) || (dataset !== null && d.dataset !== dataset)) continue;
      found.set(d.externalId, [...(found.get(d.externalId) ?? []), d.id]);
    }
    return found;
  }

  async documentsOfChunks(
    chunkIds: string[],
    collectionId: string | null = null,
  ): Promise<Map<string, string>> {
    const asked = new Set(chunkIds.map((id) => id.toLowerCase()));
    const documents = new Set(this.inCollection(collectionId).map((d) => d.id));
    return new Map([...this.chunks].filter(([id, document]) => asked.has(id) && documents.has(document)));
  }
}

const resolver = new ExpectedSourceResolver(new InMemoryCorpus() as unknown as CorpusRepository);

describe('ExpectedSourceResolver', () => {
  it('turns ids and external ids into document ids, and gives a chunk its document', async () => {
    expect(
      await resolver.resolve(
        [
          [
            { documentId: DOC_A.toUpperCase(), grade: 2 },
            { documentId: 'doc-a' },
            { chunkId: CHUNK_B1.toUpperCase() },
          ],
        ],
        inBank,
      ),
    ).toEqual([
      {
        ok: true,
        // The same document twice is kept once.
        sources: [
          { documentId: DOC_A, grade: 2 },
          { documentId: DOC_B, chunkId: CHUNK_B1 },
        ],
      },
    ]);
  });

  it('rejects an unknown document or chunk, and a chunk of another document, naming each', async () => {
    const [unknown, chunkElsewhere, empty] = await resolver.resolve(
      [
        [{ documentId: 'nowhere' }, { chunkId: 'not-a-uuid' }],
        [{ documentId: DOC_A, chunkId: CHUNK_B1 }],
        [{}],
      ],
      inBank,
    );
    expect(unknown).toEqual({
      ok: false,
      reasons: [
        'unknown document "nowhere" (no document of the bank\'s collection has that id or external id)',
        'unknown chunk "not-a-uuid" (not a passage of the bank\'s collection)',
      ],
    });
    expect(chunkElsewhere).toEqual({
      ok: false,
      reasons: [`chunk "${CHUNK_B1}" does not belong to document "${DOC_A}"`],
    });
    expect(empty).toEqual({ ok: false, reasons: ['an expected source needs a documentId or a chunkId'] });
  });

  it('calls an external id two documents share ambiguous, unless the dataset tells them apart', async () => {
    expect(await resolver.resolve([[{ documentId: 'shared' }]], inBank)).toEqual([
      {
        ok: false,
        reasons: ['document "shared" is ambiguous: 2 documents have that external id (name the dataset)'],
      },
    ]);
    expect(await resolver.resolve([[{ documentId: 'shared' }]], { ...inBank, dataset: 'nfcorpus' })).toEqual([
      { ok: true, sources: [{ documentId: DOC_C }] },
    ]);
  });

  it("knows only the documents and passages of the bank's collection: another collection's are unknown", async () => {
    const [byId, byExternalId, byChunk] = await resolver.resolve(
      [[{ documentId: DOC_ELSEWHERE }], [{ documentId: 'elsewhere' }], [{ chunkId: CHUNK_ELSEWHERE }]],
      inBank,
    );
    expect(byId).toEqual({
      ok: false,
      reasons: [
        `unknown document "${DOC_ELSEWHERE}" (no document of the bank's collection has that id or external id)`,
      ],
    });
    expect(byExternalId.ok).toBe(false);
    expect(byChunk).toEqual({
      ok: false,
      reasons: [`unknown chunk "${CHUNK_ELSEWHERE}" (not a passage of the bank's collection)`],
    });
    expect(
      await resolver.resolve([[{ documentId: DOC_ELSEWHERE }]], { collectionId: OTHER_COLLECTION }),
    ).toEqual([{ ok: true, sources: [{ documentId: DOC_ELSEWHERE }] }]);
  });
});
