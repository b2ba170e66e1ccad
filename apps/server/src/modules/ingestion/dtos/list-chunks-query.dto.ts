import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ListChunksQuery } from '@lumina/shared';
import { IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

/** `?page=&limit=`, or `?chunk=<id>&limit=` for the page that holds that passage (a citation's link). */
export class ListChunksQueryDto extends PageQueryDto implements ListChunksQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Answer the page that holds this chunk of the document instead of `page`',
  })
  @IsOptional()
  @IsUUID('all', { message: 'chunk must be a chunk id (a UUID)' })
  chunk?: string;
}
