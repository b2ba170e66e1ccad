/**
 * What any chat app offers, in a real browser against the real server and the scripted LLM: copy an
 * answer with its sources, regenerate it, edit a question and resend it, export the conversation as
 * Markdown with its citations, and search conversations by title and content. Also: the empty chat
 * points to Documents, an answer's time never reads "0.0 s", and "Sign in" is quiet in local mode.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { resetLlm, seedDocument } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');
const VACATION = 'How many days of paid vacation does every employee receive?';
const LAPTOP = 'How often do engineers receive a new laptop?';
const PARENTAL = 'How many weeks of paid parental leave do parents get?';
const TRAVEL = 'Within how many days are travel expenses submitted with receipts?';

describeWhenServerHas(
  ['chat', 'uploadDocuments', 'listConversations', 'exportConversation'],
  'chat tools',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];
    let chat: ChatPage;

    const userTexts = () => chat.conversation.locator('li.message-user .message-text').allInnerTexts();
    const answerTexts = () => chat.conversation.locator('li.message-assistant .answer-text').allInnerTexts();

    beforeAll(async () => {
      browser = await launchBrowser();
      await seedDocument(HANDBOOK, 'staff-handbook.md');
    });

    afterAll(async () => {
      await browser?.close();
    });

    beforeEach(async () => {
      ({ context, page, pageErrors } = await openPage(browser));
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: WEB_URL });
      chat = new ChatPage(page);
      await resetLlm();
    });

    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    it('copies, regenerates, edits and resends, exports, and finds the conversation again', async () => {
      await chat.goto();
      // A local server needs no key: "Sign in" stays available but quiet, next to "Local mode".
      const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
      await eventually(
        'the identity check',
        async () => (await signIn.getAttribute('data-local')) === 'true',
      );
      expect(await page.locator('.local-mode-label').innerText()).toBe('Local mode');
      // The empty chat says where documents come from.
      const documentsLink = chat.page.locator('.empty-state').getByRole('link', { name: /Documents page/ });
      expect(await documentsLink.getAttribute('href')).toBe('/documents');

      await chat.ask(VACATION);
      expect(await chat.waitForAnswer()).toBe('done');
      // The answer's time: milliseconds below a second, never "0.0 s".
      const meta = await chat.lastAnswer().locator('.message-meta').innerText();
      expect(meta).toMatch(/^(\d+ ms|< 1 ms|\d+\.\d s)/);
      expect(meta).not.toContain('0.0 s');

      // Copy: the answer with its sources.
      await chat.lastAnswer().getByRole('button', { name: 'Copy', exact: true }).click();
      await chat.lastAnswer().getByRole('button', { name: 'Copied', exact: true }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toMatch(/twenty-seven days of paid vacation[^[]*\[\d\]/);
      expect(copied).toMatch(/\n\n\*\*Sources\*\*\n\n- \[\d\] Staff Handbook › Leave › Vacation/);

      await chat.ask(LAPTOP);
      expect(await chat.waitForAnswer()).toBe('done');
      expect(await userTexts()).toEqual([VACATION, LAPTOP]);
      // Only the last answer offers Regenerate.
      expect(await chat.conversation.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);

      // Regenerate: the last answer is asked again in its place.
      await chat.lastAnswer().getByRole('button', { name: 'Regenerate' }).click();
      expect(await chat.waitForAnswer()).toBe('done');
      expect(await userTexts()).toEqual([VACATION, LAPTOP]);
      const answers = await answerTexts();
      expect(answers).toHaveLength(2);
      expect(answers[1]).toMatch(/new laptop every three years/);

      // Edit the first question: it and everything after it are replaced.
      const first = chat.conversation.locator('li.message-user').first();
      await first.getByRole('button', { name: 'Edit' }).click();
      const field = chat.conversation.getByLabel('Edit the question');
      await field.fill(PARENTAL);
      await chat.conversation.getByRole('button', { name: 'Send', exact: true }).click();
      expect(await chat.waitForAnswer()).toBe('done');
      expect(await userTexts()).toEqual([PARENTAL]);
      expect((await answerTexts())[0]).toMatch(/sixteen weeks of fully paid parental leave/);
      await screenshot(page, 'chat-tools-edited.png');

      // The server kept the edit: reloading the conversation shows the same turns.
      await chat.reload();
      await chat.conversations
        .getByRole('button', { name: new RegExp(VACATION.slice(0, 30)) })
        .first()
        .click();
      await eventually('the conversation to open', async () => (await userTexts()).length === 1);
      expect(await userTexts()).toEqual([PARENTAL]);

      // Export as Markdown: questions, answers, and each answer's sources.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export as Markdown' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^how-many-days-of-paid-vacation.*\.md$/);
      const markdown = readFileSync((await download.path())!, 'utf8');
      expect(markdown).toContain(`## Question\n\n${PARENTAL}`);
      expect(markdown).toMatch(/sixteen weeks of fully paid parental leave[^[]*\[\d\]/);
      expect(markdown).toMatch(/\*\*Sources\*\*\n\n- \[\d\] Staff Handbook › Leave › Parental leave/);

      // A second conversation, then search: by content (the edited question) and by title.
      await chat.conversations.getByRole('button', { name: 'New conversation' }).click();
      await chat.ask(TRAVEL);
      expect(await chat.waitForAnswer()).toBe('done');
      const search = chat.conversations.getByLabel('Search conversations');
      const rows = chat.conversations.locator('li.conversation');
      await search.fill('parental leave');
      await eventually('the search to narrow the list', async () => (await rows.count()) === 1);
      expect(await rows.first().innerText()).toContain(VACATION.slice(0, 30));
      await search.fill('TRAVEL EXPENSES');
      await eventually(
        'the title search',
        async () =>
          (await rows.count()) === 1 && (await rows.first().innerText()).includes('Within how many days'),
      );
      await search.fill('no such words anywhere');
      await chat.conversations.getByText('No conversation mentions “no such words anywhere”.').waitFor();
      await search.fill('');
      await eventually('every conversation to be listed again', async () => (await rows.count()) >= 2);
    });
  },
);
