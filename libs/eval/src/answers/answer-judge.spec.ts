import { FakeChatModel } from '@lumina/rag/testing';
import { AnswerJudge } from './answer-judge';
import { JUDGE_PROMPT_VERSION } from './judge-prompt';

describe('AnswerJudge', () => {
  it('asks the judge model for a deterministic JSON verdict and reads it', async () => {
    const model = new FakeChatModel(
      '{"faithful": true, "citations_valid": true, "unsupported_claims": [], "reason": "ok"}',
      0,
      'judge-model',
    );
    const judge = new AnswerJudge(model);
    const verdict = await judge.judge('How?', 'Promote it [1].', [
      { marker: 1, title: 'Runbook', text: 'Promote the standby.' },
    ]);
    expect(verdict).toEqual({ faithful: true, citationsValid: true, unsupportedClaims: [], reason: 'ok' });
    expect([judge.modelId, judge.promptVersion]).toEqual(['judge-model', JUDGE_PROMPT_VERSION]);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({ temperature: 0, maxTokens: 600, json: true });
    expect(model.requests[0].messages[1].content).toContain('Promote the standby.');
  });

  it('fails when the reply holds no verdict', async () => {
    const judge = new AnswerJudge(new FakeChatModel('I cannot grade this.'));
    await expect(judge.judge('q', 'a', [])).rejects.toThrow(/judge's reply holds no JSON object/);
  });
});
