import { ApiPropertyOptional } from '@nestjs/swagger';
import { RERANKER_LEARNERS } from '@lumina/shared';
import type { FitRerankerRequest, RerankerLearner } from '@lumina/shared';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';

export class FitRerankerDto implements FitRerankerRequest {
  @ApiPropertyOptional({
    enum: RERANKER_LEARNERS,
    default: 'linear',
    description:
      'linear: a linear model fitted on pairs of candidates (the default: it measured best on questions about ' +
      'documents the fit never saw); lambdamart: gradient-boosted trees.',
  })
  @IsOptional()
  @IsIn(RERANKER_LEARNERS, { message: `learner must be one of ${RERANKER_LEARNERS.join(', ')}` })
  learner?: RerankerLearner;

  @ApiPropertyOptional({
    default: true,
    description: 'Switch the model on when it is fitted (not if it measured worse than no reranking).',
  })
  @IsOptional()
  @IsBoolean({ message: 'activate must be true or false' })
  activate?: boolean;
}
