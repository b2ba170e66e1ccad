import { ExpectedSourceResolver } from './expected-source-resolver';
import type { CorpusRepository } from './repositories/corpus.repository';

const DOC_A = '0a000000-0000-4000-8000-00000000000a';
const DOC_B = '0b000000-0000-4000-8000-00000000000b';
const DOC_C = '0c000000-0000-4000-8000-00000000000c';
const CHUNK_A1 = 'a1000000-0000-4000-8000-0000000000a1';
const CHUNK_B1 = 'b1000000-0000-4000-8000-0000000000b1';

/**
 * The corpus reads of CorpusRepository over a few documents and chunks in memory. Ids compare as
 * PostgreSQL's uuid type does (any case in, lower case out).
 */
class InMemoryCorpus implements Pick<
  CorpusRepository,
  'existingDocumentIds' | 'documentsByExternalId' | 'documentsOfChunks'
> {
  readonly documents = [
    { id: DOC_A, externalId: 'doc-a', dataset: 'scifact' },
    { id: DOC_B, externalId: 'shared', dataset: 'scifact' },
    { id: DOC_C, externalId: 'shared', dataset: 'nfcorpus' },
  ];
  readonly chunks = new Map([
    [CHUNK_A1, DOC_A],
    [CHUNK_B1, DOC_B],
  ]);

  async existingDocumentIds(ids: string[]): Promise<Set<string>> {
    const asked = new Set(ids.map((id) => id.toLowerCase()));
    return new Set(this.documents.filter((d) => asked.has(d.id)).map((d) => d.id));
  }

  async documentsByExternalId(externalIds: string[], dataset: string | null): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const d of this.documents) {
      if (!externalIds.includes(d.externalId) || (dataset !== null && d.dataset !== dataset)) continue;
      found.set(d.externalId, [...(found.get(d.externalId) ?? []), d.id]);
    }
    return found;
  }

  async documentsOfChunks(chunkIds: string[]): Promise<Map<string, string>> {
    const asked = new Set(chunkIds.map((id) => id.toLowerCase()));
    return new Map([...this.chunks].filter(([id]) => asked.has(id)));
  }
}

const resolver = new ExpectedSourceResolver(new InMemoryCorpus() as unknown as CorpusRepository);

describe('ExpectedSourceResolver', () => {
  it('turns ids and external ids into document ids, and gives a chunk its document', async () => {
    expect(
      await resolver.resolve([
        [
          { documentId: DOC_A.toUpperCase(), grade: 2 },
          { documentId: 'doc-a' },
          { chunkId: CHUNK_B1.toUpperCase() },
        ],
      ]),
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
    const [unknown, chunkElsewhere, empty] = await resolver.resolve([
      [{ documentId: 'nowhere' }, { chunkId: 'not-a-uuid' }],
      [{ documentId: DOC_A, chunkId: CHUNK_B1 }],
      [{}],
    ]);
    expect(unknown).toEqual({
      ok: false,
      reasons: [
        'unknown document "nowhere" (no document has that id or external id)',
        'unknown chunk "not-a-uuid"',
      ],
    });
    expect(chunkElsewhere).toEqual({
      ok: false,
      reasons: [`chunk "${CHUNK_B1}" does not belong to document "${DOC_A}"`],
    });
    expect(empty).toEqual({ ok: false, reasons: ['an expected source needs a documentId or a chunkId'] });
  });

  it('calls an external id two documents share ambiguous, unless the dataset tells them apart', async () => {
    expect(await resolver.resolve([[{ documentId: 'shared' }]])).toEqual([
      {
        ok: false,
        reasons: ['document "shared" is ambiguous: 2 documents have that external id (name the dataset)'],
      },
    ]);
    expect(await resolver.resolve([[{ documentId: 'shared' }]], { dataset: 'nfcorpus' })).toEqual([
      { ok: true, sources: [{ documentId: DOC_C }] },
    ]);
  });
});
