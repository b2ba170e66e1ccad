import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ListQuestionBanksQuery } from '@lumina/shared';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

export class ListQuestionBanksQueryDto extends PageQueryDto implements ListQuestionBanksQuery {
  @ApiPropertyOptional({ description: 'Words in the name or description (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'templateId must be a template id (UUID)' })
  templateId?: string;
}
