import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { OpenAiChatService } from './openai-chat.service';
import { OpenAiController } from './openai.controller';

/** GET /v1/models and POST /v1/chat/completions: the chat for OpenAI-compatible clients. */
@Module({
  imports: [ChatModule, CollectionsCoreModule],
  controllers: [OpenAiController],
  providers: [OpenAiChatService],
})
export class OpenAiModule {}
