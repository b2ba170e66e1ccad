/**
 * Offline quotes in a real browser (a second API server without LLM_BASE_URL, which the page's requests
 * are sent to, so the extractive answerer writes the answer): a how-question gets the sentence with the
 * code example it introduces; a question about a table's value gets the row under its header, rendered
 * as a table. Each citation opens the passage rendered as Markdown (code as code, no raw fences) with
 * only the quoted text marked, not the whole passage.
 */
import path from 'node:path';
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
import { ChatPage } from './pages/chat.page';

const GUIDE = path.join(__dirname, 'fixtures', 'queue-client-guide.md');
const CONNECT_SENTENCE = 'You connect to the Sentinel group with the sentinels option and the group name.';

describeWhenServerHas(['chat', 'uploadDocuments'], 'citation quotes', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;
  let offline: ApiProcess | null = null;

  beforeAll(async () => {
    await emptyLibrary();
    browser = await launchBrowser();
    offline = await startApi({
      llmUrl: null,
      webUrl: WEB_URL,
      log: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-api-offline-quotes.log'),
    });
    await waitForApi(offline);
    await emptyLibrary(offline.url);
    await seedDocument(GUIDE, 'queue-client-guide.md', offline.url);
  });

  afterAll(async () => {
    await browser?.close();
    if (offline?.child.pid) stopProcesses([offline.child.pid]);
  });

  beforeEach(async () => {
    ({ context, page, pageErrors } = await openPage(browser));
    chat = new ChatPage(page);
    await resetLlm();
    const target = (offline as ApiProcess).url;
    // The web app talks to the offline server: every API request of the page is sent there.
    await routeApiTo(context, target);
    await chat.goto();
    await eventually(
      'the status badge to report no language model',
      async () => !(await chat.statusBadge.innerText()).includes('scripted-e2e'),
    );
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  /** The marked text of the open citation dialog, mark by mark. */
  async function markedTexts(): Promise<string[]> {
    const marks = chat.citationDialog.locator('.cited-passage mark.cited-span');
    return (await marks.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
  }

  it('quotes the sentence with its code example, and the dialog marks that sentence and shows code as code', async () => {
    await chat.ask('How do I connect to the Sentinel group?');
    expect(await chat.waitForAnswer()).toBe('done');
    const answer = chat.lastAnswer().locator('.answer-text');
    expect(await answer.innerText()).toContain(CONNECT_SENTENCE);
    expect(await answer.locator('pre code').innerText()).toContain('new QueueClient({ sentinels:');
    // The long code line scrolls inside its block; the answer keeps its width.
    const [answerWidth, answerContent] = await chat
      .lastAnswer()
      .evaluate((element) => [element.clientWidth, element.scrollWidth]);
    expect(answerContent).toBeLessThanOrEqual(answerWidth);

    await answer.locator('button.cite').first().click();
    const dialog = chat.citationDialog;
    await dialog.waitFor();
    const passage = dialog.locator('.cited-passage');
    // Only the quoted sentence is marked: not the sentences before it in the same paragraph.
    expect((await markedTexts()).join(' ')).toBe(CONNECT_SENTENCE);
    expect(await passage.innerText()).toContain('The queue client watches a Sentinel group');
    // The passage's code block is code, not a raw fence.
    expect(await passage.locator('pre code').innerText()).toContain("name: 'mymaster'");
    expect(await passage.innerText()).not.toContain('```');
    // A long code line scrolls inside its block: the dialog keeps its width.
    const [dialogWidth, passageWidth] = await dialog.evaluate((element) => [
      element.clientWidth,
      element.scrollWidth,
    ]);
    expect(passageWidth).toBeLessThanOrEqual(dialogWidth);
    await screenshot(page, 'citation-quote-code.png', false);
    expect(await llmRequests()).toEqual([]);
  });

  it('quotes a table row under its header, and the dialog marks that row, not the others', async () => {
    await chat.ask('What is the default timeout of a command?');
    expect(await chat.waitForAnswer()).toBe('done');
    const answer = chat.lastAnswer().locator('.answer-text');
    const table = answer.locator('table.md-table');
    expect(await table.locator('th').allInnerTexts()).toEqual(['Option', 'Description', 'Default']);
    const row = table.locator('tbody tr');
    expect(await row.count()).toBe(1);
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain(
      'timeout Milliseconds before a command is aborted 30000',
    );

    await row.locator('button.cite').click();
    await chat.citationDialog.waitFor();
    const marked = (await markedTexts()).join(' ');
    expect(marked).toContain('Milliseconds before a command is aborted');
    expect(marked).toContain('30000');
    expect(marked).not.toContain('retried');
    expect(marked).not.toContain('keep-alive');
    expect(await chat.citationDialog.locator('.cited-passage table').count()).toBe(1);
    await screenshot(page, 'citation-quote-table.png', false);
  });
});
