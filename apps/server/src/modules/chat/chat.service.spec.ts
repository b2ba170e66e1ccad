import type { ChatModel, EmbeddingProvider } from '@lumina/rag';
import { RequestMetrics } from '../metrics/request-metrics';
import { ALL_COLLECTIONS } from '../auth/principal';
import type { CollectionScope } from '../collections/collection-scope.service';
import type { RagService } from '../rag/rag.service';
import { ChatService, GENERAL_NEEDS_LLM } from './chat.service';
import { ConversationService } from './conversation.service';
import type { ConversationRepository } from './repositories/conversation.repository';
import { InMemoryConversationRepository } from './testing/in-memory-conversation.repository';

const OWNER = 'key-owner';
const model = { modelId: 'scripted' } as ChatModel;
const embedder = { modelId: 'hash', dimension: 4, maxInputChars: 100 } as EmbeddingProvider;
/** One collection, searched whenever a request names none. */
const collections = {
  searchable: async (_access: unknown, ids?: string[]) => ({ collectionIds: ids ?? ['c-1'], filter: null }),
  stillSearchable: async (_access: unknown, ids: string[]) => ({ collectionIds: ids, filter: null }),
} as unknown as CollectionScope;

/** A conversation holding a question and a documents answer that found nothing (unless told otherwise). */
async function setUp(answer: { notFound?: boolean; role?: 'assistant' | 'user'; source?: 'documents' } = {}) {
  const repository = new InMemoryConversationRepository();
  const conversations = new ConversationService(repository as unknown as ConversationRepository);
  const chat = (chatModel: ChatModel | null) =>
    new ChatService({} as RagService, conversations, chatModel, embedder, new RequestMetrics(), collections);
  const conversation = await conversations.create(OWNER, 'Q');
  const question = await conversations.addMessage({
    conversationId: conversation.id,
    role: 'user',
    content: 'Q',
  });
  const reply = await conversations.addMessage(
    {
      conversationId: conversation.id,
      role: answer.role ?? 'assistant',
      content: 'not found',
      source: answer.source ?? 'documents',
      notFound: answer.notFound ?? true,
      replyToId: question.id,
    },
    { standaloneQuery: 'Q, rewritten' },
  );
  return { repository, conversations, chat, conversation, question, reply };
}

describe('ChatService: the checks before a stream opens', () => {
  it('refuses a message of only spaces (400) and an unknown conversation (404)', async () => {
    const { chat } = await setUp();
    await expect(chat(model).prepareChat(OWNER, ALL_COLLECTIONS, { message: '  \n ' })).rejects.toMatchObject(
      {
        name: 'InvalidRequestError',
        message: 'message must contain words, not only spaces',
      },
    );
    await expect(
      chat(model).prepareChat(OWNER, ALL_COLLECTIONS, {
        message: 'hi',
        conversationId: 'no-such-conversation',
      }),
    ).rejects.toMatchObject({
      name: 'NotFoundError',
      message: 'Conversation no-such-conversation does not exist',
    });
  });

  it('prepares an answer from general knowledge with the standalone question the search used', async () => {
    const { chat, conversation, question, reply } = await setUp();
    const prepared = await chat(model).prepareGeneral(OWNER, {
      conversationId: conversation.id,
      messageId: reply.id,
    });
    expect(prepared).toEqual({ conversation, question, standaloneQuestion: 'Q, rewritten', model });
  });

  it('answers 404, 400, 409 and 503 as the general-knowledge route documents them', async () => {
    const general = async (setup: Awaited<ReturnType<typeof setUp>>, chatModel: ChatModel | null = model) =>
      setup.chat(chatModel).prepareGeneral(OWNER, {
        conversationId: setup.conversation.id,
        messageId: setup.reply.id,
      });

    const other = await setUp();
    await expect(
      other
        .chat(model)
        .prepareGeneral(OWNER, { conversationId: other.conversation.id, messageId: 'elsewhere' }),
    ).rejects.toMatchObject({ name: 'NotFoundError', status: 404 });
    await expect(general(await setUp({ role: 'user' }))).rejects.toMatchObject({
      name: 'InvalidRequestError',
      message: 'messageId must name an answer from the documents',
    });
    await expect(general(await setUp({ notFound: false }))).rejects.toMatchObject({
      name: 'ConflictError',
      status: 409,
    });
    const answered = await setUp();
    await answered.conversations.addMessage({
      conversationId: answered.conversation.id,
      role: 'assistant',
      content: 'from general knowledge',
      source: 'general-knowledge',
      replyToId: answered.question.id,
    });
    await expect(general(answered)).rejects.toMatchObject({
      name: 'ConflictError',
      message: 'This question already has an answer from general knowledge.',
    });
    await expect(general(await setUp(), null)).rejects.toMatchObject({
      name: 'UnavailableError',
      status: 503,
      message: GENERAL_NEEDS_LLM,
    });
  });
});
