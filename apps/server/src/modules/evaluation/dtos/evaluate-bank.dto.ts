import { ApiPropertyOptional } from '@nestjs/swagger';
import type { EvaluateBankRequest } from '@lumina/shared';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { SearchSettingsDto } from '../../rag/dtos/search-settings.dto';

export class EvaluateBankDto implements EvaluateBankRequest {
  @ApiPropertyOptional({
    type: SearchSettingsDto,
    description: 'Overrides of DEFAULT_SETTINGS for every item',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SearchSettingsDto)
  settings?: SearchSettingsDto;
}
