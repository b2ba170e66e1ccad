import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

/** Longest text `GET /conversations?q=` searches for. */
export const MAX_CONVERSATION_QUERY_CHARS = 200;

/** `?page=&limit=&q=` of GET /conversations. */
export class ConversationListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    maxLength: MAX_CONVERSATION_QUERY_CHARS,
    description: 'Only conversations whose title or any question or answer contains this text (any case)',
    example: 'standby',
  })
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(MAX_CONVERSATION_QUERY_CHARS, {
    message: `q must be at most ${MAX_CONVERSATION_QUERY_CHARS} characters long`,
  })
  q?: string;
}
