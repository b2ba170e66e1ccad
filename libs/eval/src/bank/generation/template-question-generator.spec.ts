import { generateTemplateQuestion } from './template-question-generator';

describe('generateTemplateQuestion', () => {
  const passage = {
    title: 'Database runbook',
    headingPath: ['Failover'],
    text: 'Short. Promote the standby replica with pg_ctl promote. Then repoint the application connection string.',
  };

  it('asks what the heading says about the key phrase of the first informative sentence', () => {
    expect(generateTemplateQuestion(passage, 0)).toEqual({
      question: 'What does Failover say about standby replica?',
      expectedAnswer: 'Promote the standby replica with pg_ctl promote.',
      style: 'about',
    });
  });

  it('writes a cloze question on odd variants, blanking a phrase that is in the sentence', () => {
    const cloze = generateTemplateQuestion(passage, 1)!;
    expect(cloze.style).toBe('cloze');
    expect(cloze.question).toMatch(/^Fill in the blank: .*_____/);
    expect(cloze.question.replace('_____', cloze.expectedAnswer)).toBe(
      'Fill in the blank: Promote the standby replica with pg_ctl promote.',
    );
  });

  it('is deterministic, falls back to the title without headings, and gives up on passages without sentences', () => {
    expect(generateTemplateQuestion(passage, 0)).toEqual(generateTemplateQuestion(passage, 0));
    const untitled = generateTemplateQuestion({ ...passage, headingPath: [] }, 0)!;
    expect(untitled.question).toMatch(/^What does Database runbook say about /);
    expect(generateTemplateQuestion({ ...passage, text: 'Too short. Also short.' }, 0)).toBeNull();
  });
});
