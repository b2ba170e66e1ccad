import type { AnswerabilityModel } from './answerability-model';

/**
 * The answerability model the project ships, fitted on TRAIN splits only by
 *   npm run eval -- --suite answerability --dataset <scifact> --split train --docs datasets/docs-gold \
 *     --docs-split train --fit model.json --target 0.03 --version answerability-lex-v1
 * (SciFact train made unanswerable by leaving the gold out, and the docs gold set's train half; each
 * source weighs the same). The target of 3% false refusals on the fitting data leaves a margin under the
 * 5% the product promises. Lexical features only: the local embedder is too weak to add evidence, so the
 * same model holds for any embedder. The README's answerability section has the test-split figures,
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
