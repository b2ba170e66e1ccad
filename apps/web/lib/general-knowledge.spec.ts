import { generalKnowledgeOffer } from './general-knowledge';

describe('the general-knowledge offer under a not-found answer', () => {
  it("follows the server's word on a live answer, whatever the status report says", () => {
    expect(generalKnowledgeOffer(true, 'not-configured')).toBe('offer');
    expect(generalKnowledgeOffer(false, 'configured')).toBe('needs-llm');
    expect(generalKnowledgeOffer(false, 'unknown')).toBe('needs-llm');
  });

  it('follows the reported LLM when the server did not say (history, older servers)', () => {
    expect(generalKnowledgeOffer(null, 'configured')).toBe('offer');
    expect(generalKnowledgeOffer(null, 'not-configured')).toBe('needs-llm');
    expect(generalKnowledgeOffer(null, 'unknown')).toBe('unknown');
  });
});
