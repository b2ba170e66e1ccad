import type { ChatModel } from '@lumina/rag';
import { JUDGE_PROMPT_VERSION, judgeMessages, parseJudgeVerdict } from './judge-prompt';
import type { JudgeVerdict, JudgedPassage } from './judge-prompt';

/** Grades an answer against the passages it cites, with a judge model behind the ChatModel port. */
export class AnswerJudge {
  readonly promptVersion = JUDGE_PROMPT_VERSION;

  constructor(private readonly model: ChatModel) {}

  get modelId(): string {
    return this.model.modelId;
  }

  async judge(question: string, answer: string, cited: readonly JudgedPassage[]): Promise<JudgeVerdict> {
    const reply = await this.model.complete({
      messages: judgeMessages(question, answer, cited),
      temperature: 0,
      maxTokens: 600,
      json: true,
    });
    return parseJudgeVerdict(reply.text);
  }
}
