import { HttpException, Injectable } from '@nestjs/common';
import { errorCodeForStatus } from '@lumina/shared';
import { DomainError } from '../../common/errors/domain-errors';
import { collectionAccess } from '../auth/principal';
import type { CollectionAccess, Principal } from '../auth/principal';
import { ChatService } from '../chat/chat.service';
import { DocumentCatalogService } from '../ingestion/document-catalog.service';
import { RagService } from '../rag/rag.service';
import { ChatAnswerCollector } from '../chat/chat-answer';
import { ChatStreams } from '../chat/chat-streams';
import { HeldWork } from '../chat/held-work';
import { askAnswerOf } from './answer-collector';
import { LuminaApiError, readPassagePages } from './lumina-api.port';
import type { AskAnswer, AskCall, LuminaApi } from './lumina-api.port';

/**
 * The MCP tools' port served by the API's own services, acting as the request's principal: the same
 * search, chat (its conversation stored under the principal's key, with its retrieval trace) and
 * document reads as the REST routes, with the same collection scope and the same 4xx sentences.
 */
@Injectable()
export class InProcessLumina {
  constructor(
    private readonly rag: RagService,
    private readonly chat: ChatService,
    private readonly catalog: DocumentCatalogService,
    private readonly streams: ChatStreams,
  ) {}

  as(principal: Principal): LuminaApi {
    const access = collectionAccess(principal);
    return {
      search: (call, signal) =>
        refused(() => this.rag.searchIn(access, call.collectionIds, call.query, call.settings ?? {}, signal)),
      ask: (call, signal) => refused(() => this.ask(principal, access, call, signal)),
      getPassage: (chunkId, neighbours) => refused(() => this.catalog.passage(chunkId, neighbours, access)),
      listDocuments: (query) => refused(() => this.catalog.list(query, access)),
      readDocument: (documentId, maxPassages) =>
        refused(async () =>
          readPassagePages(await this.catalog.view(documentId, access), maxPassages, (page, limit) =>
            this.catalog.chunks(documentId, { page, limit }, access),
          ),
        ),
    };
  }

  /** POST /chat's work without its stream: the events are gathered into the whole answer. */
  private async ask(
    principal: Principal,
    access: CollectionAccess,
    call: AskCall,
    signal: AbortSignal,
  ): Promise<AskAnswer> {
    const prepared = await this.chat.prepareChat(principal.keyId, access, {
      message: call.question,
      settings: call.settings,
      collectionIds: call.collectionIds,
      conversationId: call.conversationId,
    });
    // Registered as a chat stream is, so a shutdown ends it with its partial answer stored.
    let collector = new ChatAnswerCollector(signal);
    await this.streams.runOn(new HeldWork(signal), async (work) => {
      collector = new ChatAnswerCollector(work.signal);
      try {
        await this.chat.streamChat(prepared, collector);
      } catch (error) {
        this.chat.reportUnexpected(error, collector);
      }
    });
    return askAnswerOf(collector);
  }
}

/** A refusal of the services (a domain error, or an HTTP exception) as the API would answer it. */
async function refused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new LuminaApiError(error.message, error.status, error.code);
    if (error instanceof HttpException && error.getStatus() < 500) {
      const body = error.getResponse();
      const message =
        typeof body === 'object' && body !== null && 'message' in body ? body.message : error.message;
      throw new LuminaApiError(
        Array.isArray(message) ? message.join('; ') : String(message),
        error.getStatus(),
        errorCodeForStatus(error.getStatus()),
      );
    }
    throw error;
  }
}
