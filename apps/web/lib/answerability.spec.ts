import { describeFeature, explainVerdict, humanizeFeature, verdictSentence } from './answerability';

const verdict = {
  modelVersion: 'answerability-v1',
  score: 0.12,
  threshold: 0.35,
  answerable: false,
  features: { salientInCorpus: 0.5, coverageTop1: 0.3, bm25Margin: 0.1, newFeature: 0.7 },
  contributions: { salientInCorpus: -1.9, coverageTop1: 0.4, bm25Margin: -0.05, newFeature: 2.1 },
  terms: [],
};

describe('the answerability decision in plain words', () => {
  it('sorts the features by the size of their contribution, sign kept', () => {
    expect(explainVerdict(verdict).map((row) => [row.name, row.contribution, row.value])).toEqual([
      ['newFeature', 2.1, 0.7],
      ['salientInCorpus', -1.9, 0.5],
      ['coverageTop1', 0.4, 0.3],
      ['bm25Margin', -0.05, 0.1],
    ]);
  });

  it('lists a feature without a contribution last, and one without a value as null', () => {
    const rows = explainVerdict({ ...verdict, features: { extra: 1 }, contributions: { coverageTop1: 0.2 } });
    expect(rows.map((row) => [row.name, row.value, row.contribution])).toEqual([
      ['coverageTop1', null, 0.2],
      ['extra', 1, 0],
    ]);
  });

  it('explains known features in words and spells out unknown ones', () => {
    expect(describeFeature('salientInCorpus')).toBe("The question's rarest words appear in the documents");
    expect(humanizeFeature('salientInTop1')).toBe('Salient in top 1');
    expect(describeFeature('lexical_ratio')).toBe('Lexical ratio');
  });

  it('says whether the question was refused and why', () => {
    expect(verdictSentence(verdict)).toBe(
      'Refused before any model call: the score 0.12 is below the threshold 0.35.',
    );
    expect(verdictSentence({ ...verdict, score: 0.8, answerable: true })).toBe(
      'Answerable: the score 0.80 reaches the threshold 0.35.',
    );
  });
});
