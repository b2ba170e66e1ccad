import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ListRerankersQuery } from '@lumina/shared';
import { IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

export class ListRerankersQueryDto extends PageQueryDto implements ListRerankersQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the models fitted on this bank' })
  @IsOptional()
  @IsUUID('all', { message: 'bankId must be a UUID' })
  bankId?: string;
}
