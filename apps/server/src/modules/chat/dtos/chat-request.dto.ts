import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_CHAT_MESSAGE_CHARS } from '@lumina/shared';
import type { ChatAskRequest } from '@lumina/shared';
import { Type } from 'class-transformer';
import {
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SearchSettingsDto } from '../../rag/dtos/search-settings.dto';

/** Body of POST /chat. */
export class ChatRequestDto implements ChatAskRequest {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Continue this conversation; omitted: start a new one',
  })
  @IsOptional()
  @IsUUID('all', { message: 'conversationId must be a conversation id (a UUID)' })
  conversationId?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Regenerate or edit: a question of `conversationId`. It and every later message are deleted, and ' +
      '`message` (the same text to regenerate, a new one to edit) is asked in its place.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'replaceMessageId must be a message id (a UUID)' })
  replaceMessageId?: string;

  @ApiProperty({ maxLength: MAX_CHAT_MESSAGE_CHARS, example: 'How do I fail over the database?' })
  @IsString({ message: 'message must be text' })
  @IsNotEmpty({ message: 'message must not be empty' })
  @MaxLength(MAX_CHAT_MESSAGE_CHARS, {
    message: `message must be at most ${MAX_CHAT_MESSAGE_CHARS} characters long`,
  })
  message!: string;

  @ApiPropertyOptional({
    type: SearchSettingsDto,
    description: 'Retrieval settings (overrides of the defaults)',
  })
  @IsOptional()
  @IsObject({ message: 'settings must be an object' })
  @ValidateNested()
  @Type(() => SearchSettingsDto)
  settings?: SearchSettingsDto;
}
