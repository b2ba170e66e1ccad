import type { Citation } from './chat';
import { conversationMarkdown, exportFileName, sourceLabel } from './conversation-markdown';

const citation = (marker: number, over: Partial<Citation> = {}): Citation => ({
  marker,
  chunkId: `chunk-${marker}`,
  documentId: 'doc',
  title: 'Database runbook',
  headingPath: ['Failover'],
  anchor: 'failover',
  span: { start: 0, end: 10 },
  ...over,
});

describe('conversationMarkdown', () => {
  it('writes questions and answers in order, each answer with its sources by marker', () => {
    const markdown = conversationMarkdown({
      title: 'How do I promote\nthe standby?',
      createdAt: '2026-12-03T10:00:00.000Z',
      messages: [
        {
          role: 'user',
          content: 'How do I promote the standby?',
          status: 'complete',
          source: null,
          notFound: false,
          citations: [],
          error: null,
        },
        {
          role: 'assistant',
          content: 'Run pg_ctl promote [1]. Then repoint the app [2].',
          status: 'complete',
          source: 'documents',
          notFound: false,
          citations: [
            citation(2, {
              title: 'Ops guide',
              headingPath: ['Clients', 'Pools'],
              pages: { first: 3, last: 4 },
            }),
            citation(1),
          ],
          error: null,
        },
      ],
    });
    expect(markdown).toBe(
      [
        '# How do I promote the standby?',
        '',
        '_Conversation started 2026-12-03T10:00:00.000Z_',
        '',
        '## Question',
        '',
        'How do I promote the standby?',
        '',
        '## Answer',
        '',
        'Run pg_ctl promote [1]. Then repoint the app [2].',
        '',
        '**Sources**',
        '',
        '- [1] Database runbook › Failover',
        '- [2] Ops guide › Clients › Pools (pp. 3–4)',
        '',
      ].join('\n'),
    );
  });

  it('says when an answer is from general knowledge or broke off', () => {
    const markdown = conversationMarkdown({
      title: 't',
      createdAt: 'now',
      messages: [
        {
          role: 'assistant',
          content: 'Paris.',
          status: 'complete',
          source: 'general-knowledge',
          notFound: false,
          citations: [],
          error: null,
        },
        {
          role: 'assistant',
          content: 'Partial',
          status: 'failed',
          source: 'documents',
          notFound: false,
          citations: [],
          error: 'model timed out',
        },
      ],
    });
    expect(markdown).toContain('_From the model’s general knowledge, not from the documents._');
    expect(markdown).toContain('_The answer is incomplete (failed): model timed out._');
    expect(markdown).not.toContain('**Sources**');
  });
});

describe('sourceLabel and exportFileName', () => {
  it('labels a one-page source with "p.", names the title once, and names files by the title', () => {
    expect(sourceLabel({ title: 'Guide', headingPath: [], pages: { first: 7, last: 7 } })).toBe(
      'Guide (p. 7)',
    );
    // The document's H1 repeating its title is named once.
    expect(sourceLabel({ title: 'Guide', headingPath: ['Guide', 'Setup'] })).toBe('Guide › Setup');
    expect(exportFileName('How do I promote the standby? (Postgres 15)')).toBe(
      'how-do-i-promote-the-standby-postgres-15.md',
    );
    expect(exportFileName('???')).toBe('conversation.md');
  });
});
