import { ApiProperty } from '@nestjs/swagger';
import type { RenameConversationRequest } from '@lumina/shared';
import { IsString, Matches, MaxLength } from 'class-validator';
import { MAX_TITLE_CHARS } from '../conversation.service';

/** Body of PATCH /conversations/:id. */
export class RenameConversationDto implements RenameConversationRequest {
  @ApiProperty({ maxLength: MAX_TITLE_CHARS, example: 'Database failover' })
  @IsString()
  @Matches(/\S/, { message: 'title must contain a visible character' })
  @MaxLength(MAX_TITLE_CHARS, { message: `title must be at most ${MAX_TITLE_CHARS} characters` })
  title!: string;
}
