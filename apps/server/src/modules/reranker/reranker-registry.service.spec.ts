import type { AnyReranker } from '@lumina/rag';
import type { RerankerMeasurement } from '@lumina/shared';
import type { RerankerModelEntity } from './entities/reranker-model.entity';
import { OnnxCrossEncoderReranker } from '../../providers/onnx-cross-encoder-reranker';
import { RerankerRegistry } from './reranker-registry.service';
import type { ActiveModelHead, RerankerModelRepository } from './repositories/reranker-model.repository';

/** A linear model over one feature, named `version`. */
function model(version: string): RerankerModelEntity['model'] {
  return {
    format: 'lumina-ltr-v1',
    version,
    features: ['bm25'],
    mean: [0],
    scale: [1],
    weights: [1],
    training: {
      source: 'bank',
      queries: 10,
      candidates: 300,
      pairs: 100,
      candidateDepth: 30,
      seed: 1,
      l2: 0.01,
      maxPairsPerQuery: 10,
    },
  } as unknown as RerankerModelEntity['model'];
}

/** The models table as the registry reads it: active heads, every collection, a model by id. */
function repository(heads: ActiveModelHead[], collections: string[]) {
  const models = new Map(heads.map((head) => [head.id, model(`${head.collectionId}-v1`)]));
  return {
    findActiveHeads: async () => heads,
    collectionIds: async () => collections,
    findById: async (id: string) => ({ id, model: models.get(id) ?? null }),
  } as unknown as RerankerModelRepository;
}

const preferredLearned = { preferred: 'learned' } as RerankerMeasurement;

describe('RerankerRegistry: a fitted model serves its own collection', () => {
  it('serves a search of that collection alone, and never one of another or of several', async () => {
    const registry = new RerankerRegistry(
      null,
      repository(
        [
          { id: 'm-ops', collectionId: 'ops', measurement: preferredLearned },
          { id: 'm-support', collectionId: 'support', measurement: preferredLearned },
        ],
        ['ops', 'support', 'empty'],
      ),
    );
    await registry.refresh();
    expect(registry.current(['ops'])?.modelId).toBe('ltr:ops-v1');
    expect(registry.current(['support'])?.modelId).toBe('ltr:support-v1');
    expect(registry.current(['empty'])).toBeNull();
    expect(registry.current(['ops', 'support'])).toBeNull();
    // Every collection is three of them: no fitted model.
    expect(registry.current()).toBeNull();
    expect(registry.describe(['ops'])).toEqual({
      model: 'ltr:ops-v1',
      source: 'fitted',
      rerankerId: 'm-ops',
    });
    expect(registry.describe()).toEqual({ model: null, source: null, rerankerId: null });
  });

  it('in an installation of one collection, a search of everything is a search of it', async () => {
    const registry = new RerankerRegistry(
      null,
      repository([{ id: 'm-only', collectionId: 'only', measurement: preferredLearned }], ['only']),
    );
    await registry.refresh();
    expect(registry.current()?.modelId).toBe('ltr:only-v1');
    expect(registry.describe().rerankerId).toBe('m-only');
  });

  it('falls back to the configured reranker where no fitted model serves', async () => {
    const configured = { modelId: 'endpoint-reranker' } as AnyReranker;
    const registry = new RerankerRegistry(
      configured,
      repository([{ id: 'm-ops', collectionId: 'ops', measurement: preferredLearned }], ['ops', 'support']),
    );
    await registry.refresh();
    expect(registry.current(['support'])).toBe(configured);
    expect(registry.current(['ops', 'support'])).toBe(configured);
    expect(registry.current(['ops'])?.modelId).toBe('ltr:ops-v1');
  });

  it('names the in-process cross-encoder, which a fitted model measured worse than it does not replace', async () => {
    const crossEncoder = new OnnxCrossEncoderReranker({ dir: '/models/ms-marco-minilm' });
    const preferredConfigured = { preferred: 'configured' } as RerankerMeasurement;
    const registry = new RerankerRegistry(
      crossEncoder,
      repository([{ id: 'm-ops', collectionId: 'ops', measurement: preferredConfigured }], ['ops']),
    );
    await registry.refresh();
    expect(registry.configuredCallsModel()).toBe(true);
    expect(registry.current(['ops'])).toBe(crossEncoder);
    expect(registry.describe(['ops'])).toEqual({
      model: 'cross-encoder:ms-marco-minilm',
      source: 'cross-encoder',
      rerankerId: null,
    });
  });
});
