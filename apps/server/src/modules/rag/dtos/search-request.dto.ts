import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { SearchSettingsDto } from './search-settings.dto';

export const MAX_QUERY_CHARS = 10_000;

export class SearchRequestDto {
  @ApiProperty({ maxLength: MAX_QUERY_CHARS, example: 'How do I fail over the database?' })
  @IsString()
  @IsNotEmpty({ message: 'query must not be empty' })
  @MaxLength(MAX_QUERY_CHARS, { message: `query must be shorter than ${MAX_QUERY_CHARS} characters` })
  query!: string;

  @ApiPropertyOptional({ type: SearchSettingsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SearchSettingsDto)
  settings?: SearchSettingsDto;
}
