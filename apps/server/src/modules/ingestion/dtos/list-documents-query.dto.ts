import { ApiPropertyOptional } from '@nestjs/swagger';
import { DOCUMENT_STATUSES } from '@lumina/shared';
import type { DocumentStatus, ListDocumentsQuery } from '@lumina/shared';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

export class ListDocumentsQueryDto extends PageQueryDto implements ListDocumentsQuery {
  @ApiPropertyOptional({ description: 'Words in the title (case-insensitive)', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'search must be shorter than 200 characters' })
  search?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES as DocumentStatus[], {
    message: `status must be one of ${DOCUMENT_STATUSES.join(', ')}`,
  })
  status?: DocumentStatus;
}
