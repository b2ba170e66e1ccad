export { analyseForIndex, analyseQuery } from './lexical-analysis';
export type { LexicalAnalysis } from './lexical-analysis';
export { SIMPLE_CONFIG, textSearchConfig } from './text-search-config';
export { DEFAULT_SEGMENTATION, hasNoSpaceScript, segmentWords } from './word-segmentation';
export type { Segmentation } from './word-segmentation';
export { crossLingualWarning } from './cross-lingual';
export { LANGUAGE_SAMPLE_CHARS, languageSample } from './language-sample';
