import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SearchRequest } from '@lumina/shared';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { SearchSettingsDto } from './search-settings.dto';

/** A query of this many characters or more is refused (400): the longest accepted is one shorter. */
export const QUERY_CHAR_LIMIT = 10_000;
export const MAX_QUERY_CHARS = QUERY_CHAR_LIMIT - 1;

/** Body of POST /rag/search. */
export class SearchRequestDto implements SearchRequest {
  @ApiProperty({ maxLength: MAX_QUERY_CHARS, example: 'How do I fail over the database?' })
  @IsString()
  @IsNotEmpty({ message: 'query must not be empty' })
  @MaxLength(MAX_QUERY_CHARS, { message: `query must be shorter than ${QUERY_CHAR_LIMIT} characters` })
  query!: string;

  @ApiPropertyOptional({ type: SearchSettingsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SearchSettingsDto)
  settings?: SearchSettingsDto;
}
