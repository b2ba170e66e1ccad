/**
 * The answer layer in a real browser: offline (a second API server without LLM_BASE_URL, which the
 * page's requests are sent to), a question the documents don't answer gets the not-found sentence, no
 * general-knowledge offer but the sentence that says what would make it available, and the scripted
 * LLM is never called; and a Markdown answer rendered as a list and a code block, its HTML as text.
 */
import path from 'node:path';
import { GENERAL_KNOWLEDGE_NEEDS_LLM, NOT_FOUND_SENTENCE } from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { llmRequests, resetLlm, seedDocument } from './support/api';
import {
  API_URL,
  WEB_URL,
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
} from './support/browser';
import { startApi, stopProcesses, waitForApi, WORKSPACE_ROOT, type ApiProcess } from './support/stack';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');
const OUT_OF_SCOPE = 'What is the capital of Mongolia?';
const GENERAL_BUTTON = 'Answer from general knowledge';

describeWhenServerHas(['chat', 'uploadDocuments'], 'answerability', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;
  let offline: ApiProcess | null = null;

  beforeAll(async () => {
    browser = await launchBrowser();
    // The offline server boots while the first tests run against the stack with the scripted LLM.
    offline = await startApi({
      llmUrl: null,
      webUrl: WEB_URL,
      log: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-api-offline.log'),
    });
    await seedDocument(HANDBOOK, 'staff-handbook.md');
  });

  afterAll(async () => {
    await browser?.close();
    if (offline?.child.pid) stopProcesses([offline.child.pid]);
  });

  beforeEach(async () => {
    ({ context, page, pageErrors } = await openPage(browser));
    chat = new ChatPage(page);
    await resetLlm();
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  it('renders a Markdown answer as a list and a code block, its HTML as text', async () => {
    await chat.goto();
    await chat.ask('Where are laptop losses reported? Answer as a list.');
    expect(await chat.waitForAnswer()).toBe('done');
    const answer = chat.lastAnswer().locator('.answer-text');
    const items = answer.locator('ul > li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).locator('em').innerText()).toBe('security desk');
    expect(await items.nth(0).locator('button.cite').count()).toBe(1);
    expect(await answer.locator('p strong').innerText()).toBe('at once');
    // Answers carry no links: the server neutralises them (their text stays), the renderer is the second guard.
    expect(await items.nth(1).innerText()).toBe('Read (link removed) and never this link.');
    expect(await answer.locator('a').count()).toBe(0);
    expect(await answer.locator('pre code').innerText()).toBe(
      'lumina-report --lost "<script>window.__xss=2</script>"',
    );
    expect(await answer.innerText()).toContain('Shown as text: <script>window.__xss=3</script>');
    expect(await answer.locator('script, img, [href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    await items.nth(0).locator('button.cite').click();
    await chat.citationDialog.waitFor({ state: 'visible' });
    expect(await chat.citationDialog.innerText()).toContain('security desk');
    await page.keyboard.press('Escape');
    await screenshot(page, 'chat-markdown-answer.png');
  });

  it('offline: the not-found sentence, no general-knowledge offer, what would make it available, and no model call', async () => {
    if (!offline) throw new Error('the offline API server did not start');
    await waitForApi(offline);
    await seedDocument(HANDBOOK, 'staff-handbook.md', offline.url);
    const target = offline.url;
    // The web app talks to the offline server: every API request of the page is sent there.
    await context.route(`${API_URL}/**`, async (route) => {
      const response = await route.fetch({ url: route.request().url().replace(API_URL, target) });
      await route.fulfill({ response });
    });
    await chat.goto();
    await eventually(
      'the status badge to report no language model',
      async () => !(await chat.statusBadge.innerText()).includes('scripted-e2e'),
    );
    await chat.ask(OUT_OF_SCOPE);
    expect(await chat.waitForAnswer()).toBe('done');
    const refusal = chat.lastAnswer();
    expect(await refusal.getAttribute('data-not-found')).toBe('true');
    expect(await refusal.locator('.answer-text').innerText()).toContain(NOT_FOUND_SENTENCE);
    expect(await refusal.getByRole('button', { name: GENERAL_BUTTON }).count()).toBe(0);
    expect(await refusal.locator('.general-needs-llm').innerText()).toBe(GENERAL_KNOWLEDGE_NEEDS_LLM);
    expect(await llmRequests()).toEqual([]);
    await screenshot(page, 'answerability-offline-not-found.png');
  });
});
