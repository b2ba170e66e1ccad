import { CompletionError } from '@lumina/rag';
import { LlmRequestError } from './llm-request-error';

describe('LlmRequestError', () => {
  it('is the chat port’s CompletionError, so the answer logic reads a timeout without knowing the adapter', () => {
    const timedOut = new LlmRequestError('the chat model did not answer within 10 ms', { timeout: true });
    expect(timedOut).toBeInstanceOf(CompletionError);
    expect([timedOut.timeout, timedOut.retryable, timedOut.name]).toEqual([true, false, 'LlmRequestError']);
    const failed = new LlmRequestError('the chat endpoint answered 503', { status: 503, retryable: true });
    expect([failed.timeout, failed.retryable, failed.status]).toEqual([false, true, 503]);
  });

  it('keeps its own properties as before: the message, the options and the cause', () => {
    const cause = new Error('socket hang up');
    const error = new LlmRequestError('could not reach the chat endpoint', { retryable: true, cause });
    expect(Object.keys(error).sort()).toEqual(['name', 'options']);
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('could not reach the chat endpoint');
  });
});
