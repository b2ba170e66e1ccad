import { validateEnv } from '../config/env.schema';
import { createEmbedder } from './create-embedder';
import { embeddingDimensionFor, embeddingModelFor } from './embedding-dimension';

/**
 * The database layer learns the embedder's model id and width from the configuration, before any
 * embedder exists (it adopts a new embedder at boot): both must be what the embedder itself says.
 */
describe('the embedder the configuration names, before it is made', () => {
  const configurations: Record<string, string>[] = [
    { EMBEDDINGS_PROVIDER: 'local' },
    { EMBEDDINGS_PROVIDER: 'hash' },
    { EMBEDDINGS_PROVIDER: 'minilm' },
    {
      EMBEDDINGS_PROVIDER: 'openai',
      EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1',
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_DIMENSIONS: '1536',
    },
  ];

  it.each(configurations)('has the model id and width of the embedder made for %o', (overrides) => {
    const env = validateEnv({ NODE_ENV: 'test', ...overrides });
    const embedder = createEmbedder(env);
    expect(embeddingModelFor(env)).toBe(embedder.modelId);
    expect(embeddingDimensionFor(env)).toBe(embedder.dimension);
  });
});
