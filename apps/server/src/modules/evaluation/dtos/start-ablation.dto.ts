import { ApiPropertyOptional } from '@nestjs/swagger';
import type { StartAblationRequest } from '@lumina/shared';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { SearchSettingsDto } from '../../rag/dtos/search-settings.dto';

export class StartAblationDto implements StartAblationRequest {
  @ApiPropertyOptional({
    type: SearchSettingsDto,
    description:
      'Overrides of DEFAULT_SETTINGS shared by every combination (topK, candidateK, minScore, documents, ' +
      'expansion count); the ranker, expansion, HyDE and rerank switches are each combination’s own.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SearchSettingsDto)
  settings?: SearchSettingsDto;
}
