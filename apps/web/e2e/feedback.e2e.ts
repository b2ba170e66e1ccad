/**
 * Feedback becomes evaluation, in a real browser against the real server: a thumbs-down with a reason and
 * a note under an answer in the chat, the rating on the Feedback page (chart, entry, proposed sources),
 * "Add to question bank" with the source picker's form, and the new item's row in an evaluation run of
 * that bank.
 */
import type { FeedbackEntry, Page as ApiPage, QuestionBank, QuestionBankItem } from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson, emptyLibrary, seedTextDocument } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { ChatPage } from './pages/chat.page';

const RUNBOOK = [
  '# Replica Runbook',
  '',
  '## Failover',
  '',
  'Promote the standby replica with pg_ctl promote, then repoint the writers at the new primary.',
  'The on-call engineer confirms the replication lag before the promotion.',
  '',
  '## Backups',
  '',
  'Nightly base backups run at 02:00 and are kept for fourteen days.',
].join('\n');

const QUESTION = 'How do I promote the standby replica?';
const NOTE = 'Run pg_ctl promote on the standby, then repoint the writers';

describeWhenServerHas(
  ['chat', 'rateAnswer', 'listFeedback', 'feedbackDaily', 'feedbackToBank', 'evaluateQuestionBank'],
  'feedback',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];
    let bank: QuestionBank;

    beforeAll(async () => {
      await emptyLibrary();
      await seedTextDocument('Replica Runbook', RUNBOOK);
      bank = await apiJson<QuestionBank>('POST', '/question-banks', {
        name: `From feedback ${Date.now().toString(36)}`,
        description: 'Questions users rated down',
      });
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      if (bank) await apiJson('DELETE', `/question-banks/${bank.id}`);
    });

    beforeEach(async () => {
      ({ context, page, pageErrors } = await openPage(browser));
    });

    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    it('takes a thumbs-down from the chat into a bank item and finds its row in an evaluation run', async () => {
      // The chat: ask, rate down with a reason and a note; the rating stays shown.
      const chat = new ChatPage(page);
      await chat.goto();
      await chat.ask(QUESTION);
      expect(await chat.waitForAnswer()).toBe('done');
      const answer = chat.lastAnswer();
      const rate = answer.getByRole('group', { name: 'Rate this answer' });
      await rate.getByRole('button', { name: 'Not helpful' }).click();
      const form = answer.getByRole('form', { name: 'What was wrong with the answer' });
      // An answer that answered cannot be a wrong refusal: that reason is not offered.
      expect(await form.getByLabel('The documents do answer this').count()).toBe(0);
      await form.getByLabel('Incomplete').check();
      await form.getByLabel('What should it have said? (optional)').fill(NOTE);
      await screenshot(page, 'feedback-rating-form.png');
      await form.getByRole('button', { name: 'Send rating' }).click();
      const state = answer.locator('.answer-feedback-state');
      await eventually(
        'the rating to be shown',
        async () =>
          (await state.count()) === 1 &&
          (await state.innerText()).includes('You rated this answer down: Incomplete.'),
      );
      expect(await rate.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await screenshot(page, 'feedback-rated.png');

      // The Feedback page: the day's counts and the entry with what a reviewer needs.
      await page.goto(`${WEB_URL}/feedback`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1, name: 'Feedback' }).waitFor();
      const chart = page.getByTestId('feedback-chart');
      await chart.waitFor();
      // Other suites share the server: at least this answer and this rating are counted.
      expect(await chart.locator('.feedback-totals').innerText()).toMatch(
        /[1-9]\d* answers?[\s\S]*\d+% not found[\s\S]*\d+% of [1-9]\d* ratings? thumbs-down/,
      );
      const entry = page.locator('li.feedback-entry', { hasText: QUESTION });
      await entry.waitFor();
      expect(await entry.innerText()).toContain(NOTE);
      expect(await entry.getByRole('list', { name: 'Cited passages' }).innerText()).toContain(
        'Replica Runbook',
      );
      await eventually(
        'the chart to draw its bars',
        async () => (await chart.locator('.recharts-bar-rectangle').count()) >= 1,
        30_000,
      );
      await screenshot(page, 'feedback-queue.png');

      // One entry to the bank: scope, then the form with the proposed sources and the note.
      await entry.getByLabel('For a bank:').selectOption('in');
      await entry.getByRole('button', { name: 'Add to question bank…' }).click();
      await entry.getByLabel('Question bank', { exact: true }).selectOption(bank.id);
      const itemForm = entry.getByRole('form', { name: 'Add to the bank' });
      expect(await itemForm.getByLabel('Question', { exact: true }).inputValue()).toBe(QUESTION);
      expect(await itemForm.getByLabel('Expected answer (optional)').inputValue()).toBe(NOTE);
      expect(await itemForm.getByLabel('Expected sources', { exact: true }).inputValue()).toMatch(/^chunk:/);
      await eventually('the proposed sources to be named', async () =>
        (await itemForm.getByRole('list', { name: 'Expected sources picked' }).innerText()).includes(
          'Replica Runbook',
        ),
      );
      await screenshot(page, 'feedback-add-to-bank.png');
      await itemForm.getByRole('button', { name: 'Add to the bank' }).click();
      // Reviewed now: it leaves the "not reviewed yet" view, and shows in the full one with its item.
      await eventually('the entry to leave the unreviewed queue', async () => (await entry.count()) === 0);
      // The switch follows the address bar, which updates a moment after the click.
      const unreviewed = page.getByLabel('Not reviewed yet');
      await unreviewed.click();
      await eventually('the queue to show reviewed ratings too', async () => !(await unreviewed.isChecked()));
      await entry.getByRole('link', { name: 'In a question bank' }).waitFor();

      const items = await apiJson<ApiPage<QuestionBankItem>>('GET', `/question-banks/${bank.id}/items`);
      expect(items.items).toHaveLength(1);
      const [item] = items.items;
      expect(item).toMatchObject({
        question: QUESTION,
        inScope: true,
        expectedAnswer: NOTE,
        source: 'feedback',
      });
      expect(item.expectedSources.length).toBeGreaterThan(0);
      const queue = await apiJson<ApiPage<FeedbackEntry>>('GET', '/feedback');
      expect(queue.items[0]).toMatchObject({ reviewed: true, bankItem: { id: item.id, bankId: bank.id } });

      // The bank is evaluated like any other; the item's row is in the run.
      await entry.getByRole('link', { name: 'In a question bank' }).click();
      await page.getByRole('button', { name: 'Evaluate with current settings' }).click();
      const status = page.locator('[data-run-status]');
      await eventually(
        'the run to complete',
        async () => (await status.getAttribute('data-run-status')) === 'completed',
        60_000,
      );
      await page.getByRole('link', { name: 'Open this run' }).click();
      const row = page
        .getByRole('table', { name: 'Answers per question' })
        .locator(`tr[data-item-id="${item.id}"]`);
      await row.waitFor();
      expect(await row.innerText()).toContain(QUESTION);
      expect(await row.getAttribute('data-correct')).toBe('true');
      await screenshot(page, 'feedback-item-in-run.png');
    }, 180_000);
  },
);
