import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { MAX_TITLE_CHARS } from '../conversation.service';

export class RenameConversationDto {
  @ApiProperty({ maxLength: MAX_TITLE_CHARS, example: 'Database failover' })
  @IsString()
  @Matches(/\S/, { message: 'title must contain a visible character' })
  @MaxLength(MAX_TITLE_CHARS, { message: `title must be at most ${MAX_TITLE_CHARS} characters` })
  title!: string;
}
