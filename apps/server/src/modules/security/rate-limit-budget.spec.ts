import { rateLimitBudget } from './rate-limit-budget';

describe('rateLimitBudget', () => {
  it('puts search, chat and MCP on the expensive budget, by route template', () => {
    expect(rateLimitBudget('POST', '/rag/search')).toBe('expensive');
    expect(rateLimitBudget('post', '/chat')).toBe('expensive');
    expect(rateLimitBudget('POST', '/mcp')).toBe('expensive');
    expect(rateLimitBudget('POST', '/v1/chat/completions')).toBe('expensive');
  });

  it('puts every other mutating request on the writes budget, PATCH and DELETE included', () => {
    expect(rateLimitBudget('PATCH', '/conversations/:id')).toBe('writes');
    expect(rateLimitBudget('DELETE', '/conversations/:id')).toBe('writes');
    expect(rateLimitBudget('POST', '/chat/general')).toBe('writes');
    expect(rateLimitBudget('PUT', '/anything')).toBe('writes');
    // No matched route (a middleware-served page): still a write.
    expect(rateLimitBudget('POST', null)).toBe('writes');
  });

  it('leaves reads alone', () => {
    expect(rateLimitBudget('GET', '/rag/search')).toBeNull();
    expect(rateLimitBudget('HEAD', '/health')).toBeNull();
    expect(rateLimitBudget('OPTIONS', '/chat')).toBeNull();
  });
});
