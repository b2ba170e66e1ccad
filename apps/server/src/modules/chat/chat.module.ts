import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { RagModule } from '../rag/rag.module';
import { ChatStreams } from './chat-streams';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';
import { ConversationService } from './conversation.service';
import { ConversationsController } from './conversations.controller';
import { MessagesController } from './messages.controller';
import { ConversationRepository } from './repositories/conversation.repository';

@Module({
  imports: [CollectionsCoreModule, RagModule],
  controllers: [ChatController, ConversationsController, MessagesController],
  providers: [ChatService, ConversationService, ConversationRepository, ChatStreams],
  exports: [ChatService, ConversationService, ChatStreams],
})
export class ChatModule {}
