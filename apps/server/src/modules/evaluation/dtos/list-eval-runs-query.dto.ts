import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ListEvalRunsQuery } from '@lumina/shared';
import { IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

export class ListEvalRunsQueryDto extends PageQueryDto implements ListEvalRunsQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'bankId must be a question bank id (UUID)' })
  bankId?: string;
}
