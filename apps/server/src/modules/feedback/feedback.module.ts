import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { FeedbackReviewService } from './feedback-review.service';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';
import { MessageFeedbackController } from './message-feedback.controller';
import { FeedbackRepository } from './repositories/feedback.repository';

/** Ratings of answers, the review queue, and bank items made from them. */
@Module({
  imports: [ChatModule, QuestionBankCoreModule],
  controllers: [MessageFeedbackController, FeedbackController],
  providers: [FeedbackService, FeedbackReviewService, FeedbackRepository],
})
export class FeedbackModule {}
