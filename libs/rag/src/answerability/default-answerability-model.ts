import type { AnswerabilityModel } from './answerability-model';

/**
 * The answerability model the project ships, fitted on TRAIN splits only by
 *   npm run eval -- --suite answerability --dataset <scifact> --split train --docs datasets/docs-gold \
 *     --docs-split train --fit model.json --target 0.03 --version answerability-lex-v1
 * (SciFact train made unanswerable by leaving the gold out, and the docs gold set's train half; each
 * source weighs the same). The target of 3% false refusals on the fitting data leaves a margin under the
 * 5% the product promises. Lexical features only, read on BM25's searches: it decides every search whose
 * ranker has no model of its own for the embedder (HYBRID_MINILM_ANSWERABILITY_MODEL below). The README's answerability section has the test-split figures,
 * docs/measurements.md the trade-off curve. Replace it per installation with ANSWERABILITY_MODEL_FILE (fit
 * on your own bank).
 */
export const DEFAULT_ANSWERABILITY_MODEL: AnswerabilityModel = {
  version: 'answerability-lex-v1',
  features: [
    'idfMassInCorpus',
    'salientInCorpus',
    'coverageTop1',
    'coverageTop3',
    'coverageUnion3',
    'sentenceCoverage',
    'salientInTop1',
    'bm25Relative',
    'bm25Margin',
    'logQueryTerms',
  ],
  mean: [0.889731, 0.77121, 0.553064, 0.565107, 0.690536, 0.465488, 0.600834, 0.379396, 0.141229, 2.270694],
  scale: [0.175275, 0.334843, 0.195051, 0.193767, 0.201152, 0.176718, 0.489727, 0.140881, 0.133143, 0.354678],
  weights: [
    0.23818, -0.466528, 0.369182, -0.175679, 0.333519, 0.189388, -0.126522, 0.495772, 0.333216, 0.147734,
  ],
  bias: 0.161556,
  threshold: 0.23125,
  operatingPoint: {
    target: 0.03,
    inScopeRefused: 0.027304,
    outOfScopeAnswered: 0.896714,
  },
  fittedOn: {
    sources: ['docs-gold-train', 'scifact-train-lgo-0.5-1'],
    inScope: 293,
    outOfScope: 426,
    auc: 0.705139,
  },
  curve: [
    {
      threshold: 0.05,
      inScopeRefused: 0,
      outOfScopeAnswered: 0.995305,
    },
    {
      threshold: 0.1,
      inScopeRefused: 0.003413,
      outOfScopeAnswered: 0.976526,
    },
    {
      threshold: 0.15,
      inScopeRefused: 0.006826,
      outOfScopeAnswered: 0.969484,
    },
    {
      threshold: 0.2,
      inScopeRefused: 0.013652,
      outOfScopeAnswered: 0.920188,
    },
    {
      threshold: 0.25,
      inScopeRefused: 0.047782,
      outOfScopeAnswered: 0.875587,
    },
    {
      threshold: 0.3,
      inScopeRefused: 0.078498,
      outOfScopeAnswered: 0.774648,
    },
    {
      threshold: 0.35,
      inScopeRefused: 0.12628,
      outOfScopeAnswered: 0.666667,
    },
    {
      threshold: 0.4,
      inScopeRefused: 0.191126,
      outOfScopeAnswered: 0.589202,
    },
    {
      threshold: 0.45,
      inScopeRefused: 0.242321,
      outOfScopeAnswered: 0.5,
    },
    {
      threshold: 0.5,
      inScopeRefused: 0.290102,
      outOfScopeAnswered: 0.422535,
    },
    {
      threshold: 0.55,
      inScopeRefused: 0.368601,
      outOfScopeAnswered: 0.34507,
    },
    {
      threshold: 0.6,
      inScopeRefused: 0.443686,
      outOfScopeAnswered: 0.269953,
    },
    {
      threshold: 0.65,
      inScopeRefused: 0.535836,
      outOfScopeAnswered: 0.194836,
    },
    {
      threshold: 0.7,
      inScopeRefused: 0.593857,
      outOfScopeAnswered: 0.129108,
    },
    {
      threshold: 0.75,
      inScopeRefused: 0.699659,
      outOfScopeAnswered: 0.084507,
    },
    {
      threshold: 0.8,
      inScopeRefused: 0.754266,
      outOfScopeAnswered: 0.046948,
    },
    {
      threshold: 0.85,
      inScopeRefused: 0.825939,
      outOfScopeAnswered: 0.018779,
    },
    {
      threshold: 0.9,
      inScopeRefused: 0.90785,
      outOfScopeAnswered: 0.004695,
    },
    {
      threshold: 0.95,
      inScopeRefused: 0.955631,
      outOfScopeAnswered: 0,
    },
  ],
};

/**
 * The answerability model of hybrid searches with all-MiniLM-L6-v2 (dense weight 0.5), fitted the same way
 * on the hybrid's searches of the same TRAIN splits:
 *   npm run eval -- --suite answerability --dataset <scifact> --split train --docs datasets/docs-gold \
 *     --docs-split train --ranker hybrid --fit model.json --target 0.03 --version answerability-lex-hybrid-minilm-v1
 * (with EMBEDDINGS_PROVIDER=minilm). The hybrid puts other passages on top than BM25 does, so the lexical
 * features of its top passages read lower: DEFAULT_ANSWERABILITY_MODEL's threshold refused 8.7% of the docs
 * test half's answerable questions on them. The server picks it for hybrid searches with that encoder
 * (apps/server answerability-model.loader.ts); a hybrid routed to keywords alone decides with the other.
 */
export const HYBRID_MINILM_ANSWERABILITY_MODEL: AnswerabilityModel = {
  version: 'answerability-lex-hybrid-minilm-v1',
  features: [
    'idfMassInCorpus',
    'salientInCorpus',
    'coverageTop1',
    'coverageTop3',
    'coverageUnion3',
    'sentenceCoverage',
    'salientInTop1',
    'bm25Relative',
    'bm25Margin',
    'logQueryTerms',
  ],
  mean: [0.8869, 0.769071, 0.512467, 0.539816, 0.635627, 0.453497, 0.538141, 0.368678, 0.171027, 2.267752],
  scale: [0.182689, 0.336829, 0.208759, 0.203776, 0.210654, 0.183509, 0.498543, 0.147145, 0.152011, 0.358847],
  weights: [
    0.42096, -0.685665, 0.40098, -0.105923, 0.411974, 0.277992, -0.195702, 0.387597, 0.188227, 0.021852,
  ],
  bias: 0.147664,
  threshold: 0.194421,
  operatingPoint: { target: 0.03, inScopeRefused: 0.027304, outOfScopeAnswered: 0.899533 },
  fittedOn: {
    sources: ['docs-gold-train', 'scifact-train-lgo-0.5-1'],
    inScope: 293,
    outOfScope: 428,
    auc: 0.713837,
  },
  curve: [
    { threshold: 0.05, inScopeRefused: 0.003413, outOfScopeAnswered: 0.988318 },
    { threshold: 0.1, inScopeRefused: 0.003413, outOfScopeAnswered: 0.971963 },
    { threshold: 0.15, inScopeRefused: 0.013652, outOfScopeAnswered: 0.964953 },
    { threshold: 0.2, inScopeRefused: 0.027304, outOfScopeAnswered: 0.892523 },
    { threshold: 0.25, inScopeRefused: 0.051195, outOfScopeAnswered: 0.843458 },
    { threshold: 0.3, inScopeRefused: 0.085324, outOfScopeAnswered: 0.768692 },
    { threshold: 0.35, inScopeRefused: 0.129693, outOfScopeAnswered: 0.656542 },
    { threshold: 0.4, inScopeRefused: 0.187713, outOfScopeAnswered: 0.563084 },
    { threshold: 0.45, inScopeRefused: 0.228669, outOfScopeAnswered: 0.483645 },
    { threshold: 0.5, inScopeRefused: 0.293515, outOfScopeAnswered: 0.38785 },
    { threshold: 0.55, inScopeRefused: 0.348123, outOfScopeAnswered: 0.327103 },
    { threshold: 0.6, inScopeRefused: 0.430034, outOfScopeAnswered: 0.273364 },
    { threshold: 0.65, inScopeRefused: 0.481229, outOfScopeAnswered: 0.196262 },
    { threshold: 0.7, inScopeRefused: 0.56314, outOfScopeAnswered: 0.140187 },
    { threshold: 0.75, inScopeRefused: 0.679181, outOfScopeAnswered: 0.100467 },
    { threshold: 0.8, inScopeRefused: 0.74744, outOfScopeAnswered: 0.058411 },
    { threshold: 0.85, inScopeRefused: 0.808874, outOfScopeAnswered: 0.035047 },
    { threshold: 0.9, inScopeRefused: 0.897611, outOfScopeAnswered: 0.011682 },
    { threshold: 0.95, inScopeRefused: 0.96587, outOfScopeAnswered: 0 },
  ],
};
