/**
 * The answer layer in a real browser: a question the documents don't answer gets the not-found
 * sentence without a model call, both with a language model (the answerability decision shown in the
 * trace; the general-knowledge answer offered, and it works) and offline (a second API server without
 * LLM_BASE_URL, which the page's requests are sent to: no offer, the sentence that says what would make
 * it available, and the scripted LLM is never called); and a Markdown answer rendered as a list and a
 * code block, its HTML as text.
 */
import path from 'node:path';
import { GENERAL_KNOWLEDGE_NEEDS_LLM, NOT_FOUND_SENTENCE } from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emptyLibrary, llmRequests, resetLlm, seedDocument } from './support/api';
import {
  routeApiTo,
  WEB_URL,
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
} from './support/browser';
import { startApi, stopProcesses, waitForApi, WORKSPACE_ROOT, type ApiProcess } from './support/stack';
import { GENERAL_ANSWER_PREFIX } from './support/scripted-llm';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');
const OUT_OF_SCOPE = 'What is the capital of Mongolia?';
/** Shares everyday words with the handbook (so passages are retrieved and weighed), not its subject. */
const WEIGHED_OUT_OF_SCOPE = 'How many days does the Mars rover need to charge its battery?';
const GENERAL_BUTTON = 'Answer from general knowledge';

describeWhenServerHas(['chat', 'uploadDocuments'], 'answerability', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;
  let offline: ApiProcess | null = null;

  beforeAll(async () => {
    await emptyLibrary();
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

  it('with a language model: refuses before any model call, offers general knowledge, and it works', async () => {
    await chat.goto();
    await chat.openSettings();
    await chat.setToggle('Show retrieval trace', true);
    await chat.closeSettings();
    await chat.ask(WEIGHED_OUT_OF_SCOPE);
    expect(await chat.waitForAnswer()).toBe('done');
    const refusal = chat.lastAnswer();
    expect(await refusal.getAttribute('data-not-found')).toBe('true');
    expect(await refusal.locator('.answer-text').innerText()).toContain(NOT_FOUND_SENTENCE);
    // The answerability decision refused it: no answer was asked of the model.
    expect((await llmRequests()).filter((request) => request.kind === 'answer')).toEqual([]);
    expect(await refusal.locator('.not-found-offer').getAttribute('data-offer')).toBe('offer');
    expect(await refusal.innerText()).not.toContain(GENERAL_KNOWLEDGE_NEEDS_LLM);

    const trace = refusal.getByRole('region', { name: 'Answerability' });
    expect(await trace.getAttribute('data-answerable')).toBe('false');
    expect(await trace.innerText()).toContain('Refused before any model call');
    const contributions = await trace
      .locator('tr[data-feature] td[data-sign]')
      .evaluateAll((cells) =>
        cells.map((cell) => Math.abs(Number(cell.textContent?.replace('−', '-').replace(/[^\d.+-]/g, '')))),
      );
    expect(contributions.length).toBeGreaterThan(0);
    expect(contributions).toEqual([...contributions].sort((a, b) => b - a));

    await refusal.getByRole('button', { name: GENERAL_BUTTON }).click();
    await eventually(
      'the general-knowledge answer to start',
      async () => (await chat.conversation.locator('li.message-assistant').count()) === 2,
    );
    expect(await chat.waitForAnswer()).toBe('done');
    const general = chat.lastAnswer();
    expect(await general.getAttribute('data-kind')).toBe('general');
    expect(await general.locator('.answer-text').innerText()).toContain(GENERAL_ANSWER_PREFIX);
    const kinds = (await llmRequests()).map((request) => request.kind);
    expect(kinds).toContain('general');
    expect(kinds).not.toContain('answer');
    await screenshot(page, 'answerability-general-knowledge.png');
  });

  it('renders a Markdown answer as a list and a code block, its HTML as text', async () => {
    await chat.goto();
    await chat.ask('As a list, please: whom do I tell about a lost or stolen laptop?');
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
    await routeApiTo(context, target);
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
