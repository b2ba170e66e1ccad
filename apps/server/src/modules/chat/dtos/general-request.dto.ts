import { ApiProperty } from '@nestjs/swagger';
import type { GeneralKnowledgeRequest } from '@lumina/shared';
import { IsUUID } from 'class-validator';

/** Body of POST /chat/general: answer the question behind a `notFound` answer from general knowledge. */
export class GeneralRequestDto implements GeneralKnowledgeRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'conversationId must be a conversation id (a UUID)' })
  conversationId!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The answer that said the documents do not contain the answer',
  })
  @IsUUID('all', { message: 'messageId must be a message id (a UUID)' })
  messageId!: string;
}
