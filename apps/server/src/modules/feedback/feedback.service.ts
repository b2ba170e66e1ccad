import { Injectable } from '@nestjs/common';
import type { Feedback, FeedbackInput, FeedbackReason } from '@lumina/shared';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { ConversationService } from '../chat/conversation.service';
import type { MessageEntity } from '../chat/entities/message.entity';
import { RequestMetrics } from '../metrics/request-metrics';
import { toFeedback } from './feedback-view';
import { FeedbackRepository } from './repositories/feedback.repository';

/**
 * Ratings of answers: one per answer and key, a new one replacing the old. Only the key of the answer's
 * conversation may rate it or read its rating; to any other key the answer does not exist (404), as
 * with its trace.
 */
@Injectable()
export class FeedbackService {
  constructor(
    private readonly conversations: ConversationService,
    private readonly feedback: FeedbackRepository,
    private readonly metrics: RequestMetrics,
  ) {}

  async rate(keyId: string, messageId: string, input: FeedbackInput): Promise<Feedback> {
    const answer = await this.ownedMessage(keyId, messageId);
    await this.assertRateable(answer);
    const reasons = [...new Set(input.reasons ?? [])];
    assertReasonsFit(answer, input.rating, reasons);
    const trace = await this.conversations.findTrace(answer.id);
    const row = await this.feedback.upsert({
      messageId: answer.id,
      keyId,
      rating: input.rating,
      reasons,
      note: input.note?.trim() ? input.note.trim() : null,
      collectionIds: trace?.collectionIds ?? [],
    });
    this.metrics.countFeedback(input.rating, reasons);
    return toFeedback(row);
  }

  async find(keyId: string, messageId: string): Promise<Feedback> {
    await this.ownedMessage(keyId, messageId);
    const row = await this.feedback.ofKey(messageId, keyId);
    if (!row) throw new NotFoundError(`Message ${messageId} has no feedback from this key`);
    return toFeedback(row);
  }

  async remove(keyId: string, messageId: string): Promise<void> {
    await this.ownedMessage(keyId, messageId);
    if (!(await this.feedback.deleteOfKey(messageId, keyId))) {
      throw new NotFoundError(`Message ${messageId} has no feedback from this key`);
    }
  }

  /** The message, if it is in a conversation of the key (another key's: 404, like a missing one). */
  private async ownedMessage(keyId: string, messageId: string): Promise<MessageEntity> {
    const message = await this.conversations.findMessage(messageId);
    const owned = message ? await this.conversations.find(keyId, message.conversationId) : null;
    if (!message || !owned) throw new NotFoundError(`Message ${messageId} does not exist`);
    return message;
  }

  /** Only a complete answer is rated: not a question, nor an answer that failed or was stopped. */
  private async assertRateable(message: MessageEntity): Promise<void> {
    if (message.role === 'user') {
      const answer = await this.feedback.answerOf(message.id);
      throw new InvalidRequestError(
        answer?.status === 'complete'
          ? `Message ${message.id} is a question; rate its answer (message ${answer.id}) instead`
          : `Message ${message.id} is a question, and its answer is not there yet (it is still being ` +
              'written, or it did not complete): rate the answer once it is complete',
      );
    }
    if (message.status !== 'complete') {
      throw new InvalidRequestError(
        `Message ${message.id} is an answer that ${message.status === 'failed' ? 'failed' : 'was stopped'}; ` +
          'only complete answers can be rated',
      );
    }
  }
}

/** Reasons go with a rating down, and the refusal reasons must match what the answer did. */
function assertReasonsFit(answer: MessageEntity, rating: string, reasons: FeedbackReason[]): void {
  const problems: string[] = [];
  if (rating === 'up' && reasons.length > 0) {
    problems.push('reasons go with a rating down; a rating up gives none');
  }
  if (reasons.includes('wrongly_refused') && !answer.notFound) {
    problems.push(
      'wrongly_refused is for an answer that said the documents do not answer the question; this one answered',
    );
  }
  if (reasons.includes('should_have_refused') && answer.notFound) {
    problems.push(
      'should_have_refused is for an answer that answered; this one already said the documents do not answer it',
    );
  }
  if (problems.length) throw new InvalidRequestError(problems);
}
