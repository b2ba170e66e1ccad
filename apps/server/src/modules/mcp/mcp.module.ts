import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { RagModule } from '../rag/rag.module';
import { InProcessLumina } from './in-process-lumina';
import { McpController } from './mcp.controller';

/** POST /mcp: Lumina's MCP tools (search, ask, get_passage, list_documents) over Streamable HTTP. */
@Module({
  imports: [RagModule, ChatModule, IngestionModule],
  controllers: [McpController],
  providers: [InProcessLumina],
})
export class McpModule {}
