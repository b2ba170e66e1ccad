import { feedbackPseudoDocument, feedbackTerms, feedbackVariants } from './pseudo-relevance-feedback';

describe('pseudo-relevance feedback', () => {
  const docs = [
    // tokens: vitamin, deficiency, bone, fracture, bone → P(bone|d1) = 2/5
    { text: 'Vitamin D deficiency: bone fracture and bone loss', score: 3 },
    // tokens: vitamin, supplementation, fracture → 1/3 each
    { text: 'Vitamin supplementation reduces fracture', score: 1 },
  ];

  it('ranks terms by score-weighted probability and skips query terms', () => {
    // weights 0.75 / 0.25. bone: 2/6·0.75 = 0.25; fracture: 1/6·0.75 + 1/3·0.25 = 0.2083;
    // deficiency 1/6·0.75 = 0.125, loss 0.125; supplementation 1/3·0.25 = 0.0833 ('vitamin' is in the query)
    const terms = feedbackTerms('vitamin', docs, 3);
    expect(terms).toEqual(['bone', 'fracture', 'deficiency']);
  });

  it('builds distinct variants from disjoint slices of the terms', () => {
    const variants = feedbackVariants('vitamin', docs, 2, 2);
    expect(variants).toEqual(['vitamin bone fracture', 'vitamin deficiency loss']);
  });

  it('returns no variants without feedback documents', () => {
    expect(feedbackVariants('vitamin', [], 3)).toEqual([]);
  });

  it('joins the top passages as the pseudo-document', () => {
    expect(feedbackPseudoDocument(docs, 1)).toBe(docs[0].text);
    expect(feedbackPseudoDocument(docs, 2, 10)).toHaveLength(10);
  });
});
