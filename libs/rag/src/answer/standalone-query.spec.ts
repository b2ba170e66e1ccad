import { historyStandaloneQuery, parseStandaloneQuery, standaloneQueryMessages } from './standalone-query';

const history = [
  { role: 'user' as const, content: 'How do I fail over the database?' },
  { role: 'assistant' as const, content: 'Promote the standby [1].' },
  { role: 'user' as const, content: 'And the backups?' },
  { role: 'assistant' as const, content: 'Nightly [2].' },
];

describe('standalone queries', () => {
  it('offline: joins the last user turns and the new question', () => {
    expect(historyStandaloneQuery(history, 'At what time?')).toBe(
      'How do I fail over the database? And the backups? At what time?',
    );
    expect(historyStandaloneQuery(history, 'At what time?', 1)).toBe('And the backups? At what time?');
    expect(historyStandaloneQuery([], 'Alone')).toBe('Alone');
  });

  it('offline: keeps the end when the join is too long', () => {
    const long = [{ role: 'user' as const, content: 'a'.repeat(50) }];
    expect(historyStandaloneQuery(long, 'tail question', 2, 20)).toBe('aaaaaa tail question');
  });

  it('shows the conversation and the last question to the model', () => {
    const [, user] = standaloneQueryMessages(history, 'At what time?');
    expect(user.content).toContain(
      'User: How do I fail over the database?\nAssistant: Promote the standby [1].',
    );
    expect(user.content).toContain('Last question: At what time?');
  });

  it.each([
    ['At what time do backups run?', 'At what time do backups run?'],
    ['Standalone question: "At what time do backups run?"\n', 'At what time do backups run?'],
    ['<think>they mean backups</think>\nWhen do backups run?', 'When do backups run?'],
  ])('reads the model reply %p', (output, expected) => {
    expect(parseStandaloneQuery(output)).toBe(expected);
  });

  it('returns null for an empty reply', () => {
    expect(parseStandaloneQuery('  \n ')).toBeNull();
  });
});
