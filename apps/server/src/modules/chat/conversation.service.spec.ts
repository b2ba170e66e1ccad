import { NotFoundError } from '../../common/errors/domain-errors';
import { ConversationService, MAX_TITLE_CHARS } from './conversation.service';
import type { ConversationRepository } from './repositories/conversation.repository';
import { InMemoryConversationRepository } from './testing/in-memory-conversation.repository';

const ALICE = 'key-alice';
const BOB = 'key-bob';

function setUp() {
  const repository = new InMemoryConversationRepository();
  const service = new ConversationService(repository as unknown as ConversationRepository);
  return { repository, service };
}

describe('ConversationService', () => {
  it('titles a conversation with its first question, on one line and shortened', async () => {
    const { service } = setUp();
    expect((await service.create(ALICE, '  How do I\n fail   over?  ')).title).toBe('How do I fail over?');
    const long = await service.create(ALICE, 'word '.repeat(40));
    expect(long.title).toHaveLength(MAX_TITLE_CHARS);
    expect(long.title.endsWith('…')).toBe(true);
  });

  it("answers another key's conversation as missing, for every operation", async () => {
    const { service } = setUp();
    const { id } = await service.create(ALICE, 'Mine');
    const missing = { name: 'NotFoundError', message: `Conversation ${id} does not exist` };
    await expect(service.require(BOB, id)).rejects.toMatchObject(missing);
    await expect(service.detail(BOB, id, {})).rejects.toMatchObject(missing);
    await expect(service.rename(BOB, id, 'Taken')).rejects.toMatchObject(missing);
    await expect(service.delete(BOB, id)).rejects.toMatchObject(missing);
    expect((await service.list(BOB, {})).total).toBe(0);
    expect((await service.require(ALICE, id)).title).toBe('Mine');
  });

  it('renames with the title trimmed and answers the conversation with its message count', async () => {
    const { service } = setUp();
    const { id } = await service.create(ALICE, 'Old');
    await service.addMessage({ conversationId: id, role: 'user', content: 'Old' });
    expect(await service.rename(ALICE, id, '  New  ')).toEqual(
      expect.objectContaining({ id, title: 'New', messageCount: 1 }),
    );
  });

  it('pages the messages and says which ones have a retrieval trace', async () => {
    const { service } = setUp();
    const { id } = await service.create(ALICE, 'Q');
    const question = await service.addMessage({ conversationId: id, role: 'user', content: 'Q' });
    const answer = await service.addMessage(
      { conversationId: id, role: 'assistant', content: 'A', replyToId: question.id },
      { query: 'Q' },
    );
    const detail = await service.detail(ALICE, id, { page: 1, limit: 10 });
    expect(detail.messageCount).toBe(2);
    expect(detail.messages.items.map((m) => [m.id, m.hasTrace])).toEqual([
      [question.id, false],
      [answer.id, true],
    ]);
    expect((await service.detail(ALICE, id, { page: 2, limit: 1 })).messages.items.map((m) => m.id)).toEqual([
      answer.id,
    ]);
  });

  it('rewrites follow-ups with the complete turns only, oldest first', async () => {
    const { service } = setUp();
    const { id } = await service.create(ALICE, 'first');
    await service.addMessage({ conversationId: id, role: 'user', content: 'first' });
    await service.addMessage({ conversationId: id, role: 'assistant', content: 'cut off', status: 'failed' });
    await service.addMessage({ conversationId: id, role: 'assistant', content: 'answer' });
    expect(await service.history(id)).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer' },
    ]);
    expect(await service.history(id, 1)).toEqual([{ role: 'assistant', content: 'answer' }]);
  });

  it("gives an answer's turn the text of the passages it cited, in citing order", async () => {
    const { repository, service } = setUp();
    const { id } = await service.create(ALICE, 'how does helmet handle HSTS?');
    repository.passages.set('c1', 'Strict-Transport-Security: max-age=31536000; includeSubDomains');
    repository.passages.set('c2', 'helmet.strictTransportSecurity sets the header.');
    const cite = (marker: number, chunkId: string) => ({
      marker,
      chunkId,
      documentId: 'd',
      title: 'helmet',
      headingPath: [],
      anchor: null,
      span: { start: 0, end: 1 },
    });
    await service.addMessage({ conversationId: id, role: 'user', content: 'how does helmet handle HSTS?' });
    // c3 was deleted with its document since: left out.
    await service.addMessage({
      conversationId: id,
      role: 'assistant',
      content: 'It sets the header [2] [1].',
      citations: [cite(2, 'c2'), cite(1, 'c1'), cite(3, 'c3')],
    });
    expect(await service.history(id)).toEqual([
      { role: 'user', content: 'how does helmet handle HSTS?' },
      {
        role: 'assistant',
        content: 'It sets the header [2] [1].',
        citedPassages: [
          'helmet.strictTransportSecurity sets the header.',
          'Strict-Transport-Security: max-age=31536000; includeSubDomains',
        ],
      },
    ]);
  });

  it('finds the trace of an answer, and says why there is none otherwise', async () => {
    const { service } = setUp();
    const { id } = await service.create(ALICE, 'Q');
    const question = await service.addMessage({ conversationId: id, role: 'user', content: 'Q' });
    const answer = await service.addMessage(
      { conversationId: id, role: 'assistant', content: 'A' },
      { query: 'Q' },
    );
    await expect(service.trace(ALICE, question.id)).rejects.toThrow(
      new NotFoundError(`Message ${question.id} is a question; only answers have a retrieval trace`),
    );
    await expect(service.trace(BOB, answer.id)).rejects.toThrow(
      new NotFoundError(`Message ${answer.id} does not exist`),
    );
    await expect(service.trace(BOB, answer.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
