import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureProbeModel } from '@lumina/rag';
import { SHIPPED_MODELS_DIR } from '../../config/model-file';
import { LOCAL_EMBEDDING_MODEL } from '../../providers/embedding-dimension';
import { MINILM_L6_V2_INT8 } from '../../providers/local-models/catalogue';
import { answerabilityModelsFor } from './answerability-model.loader';

/** A model as the project ships it, read from its file. */
const shipped = (name: string): unknown =>
  JSON.parse(readFileSync(join(SHIPPED_MODELS_DIR, `${name}.json`), 'utf8'));

describe('answerabilityModelsFor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-answerability-model-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives MiniLM's hybrid searches the model fitted on them, and every other search the BM25-fitted one", () => {
    expect(answerabilityModelsFor({ ANSWERABILITY_MODEL_FILE: undefined }, MINILM_L6_V2_INT8.id)).toEqual({
      answerabilityModel: shipped('answerability-lex-v1'),
      answerabilityModelsByRanker: { hybrid: shipped('answerability-lex-hybrid-minilm-v2') },
    });
    // USE-lite's hybrid fuses with no dense weight, and an endpoint's encoder was not measured.
    for (const embedder of [LOCAL_EMBEDDING_MODEL, 'openai/text-embedding-3-small'])
      expect(answerabilityModelsFor({ ANSWERABILITY_MODEL_FILE: undefined }, embedder)).toEqual({
        answerabilityModel: shipped('answerability-lex-v1'),
        answerabilityModelsByRanker: {},
      });
  });

  it("lets an installation's own model file, or off, decide every ranker's searches", () => {
    const file = join(dir, 'model.json');
    const own = { ...featureProbeModel(), version: 'own-bank-v1' };
    writeFileSync(file, JSON.stringify(own));
    expect(answerabilityModelsFor({ ANSWERABILITY_MODEL_FILE: file }, MINILM_L6_V2_INT8.id)).toEqual({
      answerabilityModel: own,
      answerabilityModelsByRanker: {},
    });
    expect(answerabilityModelsFor({ ANSWERABILITY_MODEL_FILE: 'off' }, MINILM_L6_V2_INT8.id)).toEqual({
      answerabilityModel: null,
      answerabilityModelsByRanker: {},
    });
  });
});
