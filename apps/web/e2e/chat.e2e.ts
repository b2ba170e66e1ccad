/**
 * Chat in a real browser against the real server and the scripted LLM: a streamed answer whose
 * citation opens the cited passage; expansion and HyDE sent with the request and shown as branches;
 * settings kept across a reload; the not-found flow with a labelled general-knowledge answer; Stop;
 * an error as a sentence with Retry; conversations.
 */
import path from 'node:path';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import type { ChatAskRequest } from '@lumina/shared';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { emptyLibrary, llmRequests, resetLlm, seedDocument } from './support/api';
import { describeWhenServerHas, eventually, launchBrowser, openPage, screenshot } from './support/browser';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');
const VACATION_QUESTION = 'How many days of paid vacation does every employee receive?';
const NOT_FOUND = 'The provided documents do not contain enough information to answer this question.';

/** Sums layout shifts not caused by input (the Cumulative Layout Shift a person would feel). */
async function trackLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

/** Records the answer text's length at every change while it streams. */
async function recordStreaming(page: Page): Promise<void> {
  await page.evaluate(() => {
    const lengths: number[] = [];
    (window as unknown as { __lengths: number[] }).__lengths = lengths;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('li.message-assistant .answer-text');
      const last = answers[answers.length - 1];
      const length = last?.textContent?.length ?? 0;
      if (length && lengths.at(-1) !== length) lengths.push(length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

describeWhenServerHas(['chat', 'uploadDocuments'], 'chat', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;

  beforeAll(async () => {
    await emptyLibrary();
    browser = await launchBrowser();
    await seedDocument(HANDBOOK, 'staff-handbook.md');
  });

  afterAll(async () => {
    await browser?.close();
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

  it('streams an answer whose citation opens the cited passage, without layout shift', async () => {
    await trackLayoutShift(page);
    await chat.goto();
    await recordStreaming(page);
    const shiftBefore = await layoutShift(page);

    await chat.ask(VACATION_QUESTION);
    expect(await chat.question.inputValue()).toBe('');
    await chat.stopButton.waitFor();
    expect(await chat.waitForAnswer()).toBe('done');

    const answer = chat.lastAnswer();
    const text = await answer.locator('.answer-text').innerText();
    expect(text).toMatch(/twenty-seven days of paid vacation/);
    const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths);
    expect(lengths.length).toBeGreaterThanOrEqual(3); // it grew piece by piece
    expect(lengths.at(-1)).toBe(Math.max(...lengths));
    expect((await layoutShift(page)) - shiftBefore).toBeLessThan(0.02);
    await chat.sendButton.waitFor();

    const marker = answer.locator('button.cite').first();
    expect(await marker.getAttribute('aria-label')).toMatch(
      /^Source \d+: Staff Handbook › Leave › Vacation$/,
    );
    await screenshot(page, 'chat-answer.png');

    await marker.click();
    const dialog = chat.citationDialog;
    await dialog.waitFor();
    expect(await dialog.getByRole('heading', { level: 2 }).innerText()).toBe('Staff Handbook');
    expect(await dialog.getByRole('navigation', { name: 'Heading path' }).innerText()).toMatch(
      /Staff Handbook\s*›?\s*Leave\s*›?\s*Vacation/,
    );
    const highlighted = await dialog.locator('mark.cited-span').innerText();
    expect(highlighted).toContain(
      'Every employee receives twenty-seven days of paid vacation each calendar year',
    );
    expect(await dialog.locator('.cited-passage').innerText()).toContain(
      'carried over until the end of March',
    );
    await screenshot(page, 'chat-citation.png', false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The answer was written by the (scripted) LLM. The server reports its language model in GET /health, so the badge names it.
    expect((await chat.statusBadge.innerText()).replace(/\s+/g, ' ')).toContain('LLM scripted-e2e');

    // The sources list names the same passage.
    expect(await answer.locator('.sources').innerText()).toContain('Staff Handbook › Leave › Vacation');

    // "Open the document" lands on the cited passage in the document's passage list, marked.
    await marker.click();
    const cited = await dialog.locator('.cited-passage').getAttribute('data-chunk-id');
    await dialog.getByRole('link', { name: 'Open the document' }).click();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}\?/);
    expect(new URL(page.url()).searchParams.get('chunk')).toBe(cited);
    const marked = page.getByRole('list', { name: 'Passages' }).locator('li[aria-current="true"]');
    await eventually('the cited passage marked', async () => (await marked.count()) === 1);
    expect(await marked.getAttribute('id')).toBe(`chunk-${cited}`);
    expect(await marked.innerText()).toContain('twenty-seven days of paid vacation');
    await screenshot(page, 'citation-landed.png', false);
  });

  it('sends expansion and HyDE with the request, shows their branches, and keeps the settings after a reload', async () => {
    await chat.goto();
    await chat.openSettings();
    await chat.setMode('Query expansion', 'On');
    await chat.setMode('HyDE', 'On');
    await chat.setToggle('Show retrieval trace', true);
    expect(await chat.storedOverrides()).toEqual({ enableQueryExpansion: true, enableHyDE: true });
    await screenshot(page, 'settings-drawer.png', false);
    await chat.closeSettings();

    const sent = page.waitForRequest(
      (request: Request) => request.url().endsWith('/chat') && request.method() === 'POST',
    );
    await chat.ask(VACATION_QUESTION);
    const body = (await sent).postDataJSON() as ChatAskRequest;
    expect(body.message).toBe(VACATION_QUESTION);
    expect(body.settings).toMatchObject({
      enableQueryExpansion: true,
      enableHyDE: true,
      expansionCount: 3,
      ranker: DEFAULT_SETTINGS.ranker,
      topK: 6,
    });
    expect(await chat.waitForAnswer()).toBe('done');

    const panel = chat.lastAnswer().locator('details.retrieval-panel');
    await panel.waitFor();
    expect(await panel.locator('.chip[data-branch-kind="variant"]').count()).toBeGreaterThan(0);
    expect(await panel.locator('.chip[data-branch-kind="hyde"]').count()).toBeGreaterThan(0);
    expect(await panel.locator('.chip[data-branch-kind="original"]').count()).toBeGreaterThan(0);
    const variants = panel.getByRole('region', { name: 'Query variants' });
    expect(await variants.locator('li').count()).toBe(3);
    expect(await variants.innerText()).toContain('written by the language model');
    expect(await panel.getByRole('region', { name: 'HyDE passage' }).innerText()).toContain(
      'The staff handbook answers this',
    );
    expect(await panel.getByRole('region', { name: 'Timings' }).innerText()).toMatch(/Search\s+\d+ ms/);
    // Each passage shows its branches' own rank and score and the fused score, with what fusion means.
    const firstPassage = panel.locator('.retrieval-passage').first();
    const chipText = await firstPassage.locator('.chip[data-branch]').first().innerText();
    expect(chipText.replace(/\s+/g, ' ')).toMatch(/: rank \d+ · score -?\d/);
    const fused = await firstPassage.locator('.retrieval-fused').innerText();
    expect(fused.replace(/\s+/g, ' ')).toMatch(/^fused \d/);
    expect(await panel.locator('.score-explainer').innerText()).toMatch(
      /score fusion.*scaled to 0–1.*reciprocal rank fusion.*60 \+ its rank/s,
    );
    const kinds = (await llmRequests()).map((request) => request.kind);
    expect(kinds).toEqual(expect.arrayContaining(['expansion', 'hyde', 'answer']));
    await screenshot(page, 'chat-retrieval-panel.png');

    await chat.reload();
    await chat.openSettings();
    await chat.waitForChecked(chat.mode('Query expansion', 'On'), true);
    await chat.waitForChecked(chat.mode('HyDE', 'On'), true);
    await chat.waitForChecked(chat.toggle('Show retrieval trace'), true);
    await screenshot(page, 'settings-drawer-after-reload.png', false);
    await chat.resetButton.click();
    await chat.waitForChecked(chat.mode('HyDE', 'Off'), true);
    expect(await chat.storedOverrides()).toEqual({});
  });

  it('runs expansion and HyDE adaptively: the trace says whether they were skipped, and the model calls match', async () => {
    await chat.goto();
    await chat.openSettings();
    await chat.setMode('Query expansion', 'Adaptive');
    await chat.setMode('HyDE', 'Adaptive');
    await chat.setToggle('Show retrieval trace', true);
    expect(await chat.storedOverrides()).toEqual({
      enableQueryExpansion: 'adaptive',
      enableHyDE: 'adaptive',
    });
    expect(await chat.drawer.locator('#setting-query-expansion-hint').innerText()).toContain(
      'Adaptive: only when',
    );
    await chat.mode('Query expansion', 'Adaptive').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-drawer-adaptive.png', false);
    await chat.closeSettings();

    const sent = page.waitForRequest(
      (request: Request) => request.url().endsWith('/chat') && request.method() === 'POST',
    );
    await chat.ask(VACATION_QUESTION);
    const body = (await sent).postDataJSON() as ChatAskRequest;
    expect(body.settings).toMatchObject({ enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive' });
    expect(await chat.waitForAnswer()).toBe('done');

    const facts = chat.lastAnswer().getByRole('region', { name: 'Adaptive expansion' });
    await facts.waitFor();
    // The handbook answers this question nearly word for word: the shipped policy is sure, and skips both.
    expect(await facts.innerText()).toMatch(
      /^Adaptive: query expansion and HyDE skipped — .*confidence \d\.\d\d ≥ \d\.\d\d/,
    );
    expect(await facts.getAttribute('data-skipped')).toBe('expansion hyde');
    const kinds = (await llmRequests()).map((request) => request.kind);
    expect(kinds).not.toContain('expansion');
    expect(kinds).not.toContain('hyde');
    expect(kinds).toContain('answer');
    expect(await chat.lastAnswer().locator('.chip[data-branch-kind="variant"]').count()).toBe(0);
    await screenshot(page, 'chat-adaptive-trace.png');
  });

  it("says when the documents don't cover a question, then answers from general knowledge, labelled", async () => {
    await chat.goto();
    await chat.ask('What is the capital of Mongolia?');
    expect(await chat.waitForAnswer()).toBe('done');
    const refusal = chat.lastAnswer();
    expect(await refusal.getAttribute('data-not-found')).toBe('true');
    expect(await refusal.locator('.answer-text').innerText()).toContain(NOT_FOUND);
    expect(await refusal.locator('button.cite').count()).toBe(0);

    await refusal.getByRole('button', { name: 'Answer from general knowledge' }).click();
    await eventually(
      'the general-knowledge answer to start',
      async () => (await chat.conversation.locator('li.message-assistant').count()) === 2,
    );
    expect(await chat.waitForAnswer()).toBe('done');
    const general = chat.lastAnswer();
    expect(await general.getAttribute('data-kind')).toBe('general');
    expect(await general.getByRole('note').innerText()).toBe('General knowledge — not from your documents');
    expect(await general.locator('.answer-text').innerText()).toContain('Ulaanbaatar');
    expect(await general.locator('.sources').count()).toBe(0);
    expect(await general.locator('button.cite').count()).toBe(0);
    expect(await refusal.getByRole('button', { name: 'Answer from general knowledge' }).count()).toBe(0);
    expect((await llmRequests()).map((request) => request.kind)).toContain('general');
    await screenshot(page, 'chat-general-knowledge.png');
  });

  it('stops a streaming answer and offers to ask again', async () => {
    await chat.goto();
    await chat.ask('Explain the laptop policy step by step.');
    await eventually(
      'the answer to start streaming',
      async () => (await chat.lastAnswer().locator('.answer-text').count()) > 0,
    );
    await chat.stopButton.click();
    expect(await chat.waitForAnswer()).toBe('stopped');
    const stoppedText = await chat.lastAnswer().locator('.answer-text').innerText();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await chat.lastAnswer().locator('.answer-text').innerText()).toBe(stoppedText);
    expect(await chat.lastAnswer().innerText()).toContain('Stopped before the answer finished.');
    await chat.lastAnswer().getByRole('button', { name: 'Ask again' }).waitFor();
    await chat.sendButton.waitFor();
  });

  it('explains a failed request in a sentence and retries it', async () => {
    await chat.goto();
    let failures = 0;
    await page.route('**/chat', async (route) => {
      if (route.request().method() !== 'POST' || failures > 0) return route.continue();
      failures += 1;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify({
          statusCode: 503,
          message: 'The search index is busy',
          error: 'Service Unavailable',
        }),
      });
    });
    await chat.ask(VACATION_QUESTION);
    const alert = chat.lastAnswer().getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      "The server is running but couldn't answer your question right now (The search index is busy). Try again in a moment.",
    );
    await screenshot(page, 'chat-error.png');
    await alert.getByRole('button', { name: 'Retry' }).click();
    expect(await chat.waitForAnswer()).toBe('done');
    expect(await chat.conversation.locator('li.message-user').count()).toBe(1);
    expect(await chat.lastAnswer().locator('.answer-text').innerText()).toMatch(/twenty-seven days/);
  });

  it('keeps Shift+Enter as a new line and lists, renames, reopens and deletes conversations', async () => {
    await chat.goto();
    await chat.question.click();
    await page.keyboard.type('Where are laptop losses');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('reported?');
    expect(await chat.question.inputValue()).toBe('Where are laptop losses\nreported?');
    expect(await chat.conversation.locator(':scope > li').count()).toBe(0);
    await page.keyboard.press('Enter');
    expect(await chat.waitForAnswer()).toBe('done');

    const list = chat.conversations;
    const original = list.getByRole('button', { name: /^Where are laptop losses/ });
    await original.waitFor();
    await list.getByRole('button', { name: /^Rename "Where are laptop losses/ }).click();
    await list.getByLabel('New name').fill('Laptop losses');
    await list.getByRole('button', { name: 'Save' }).click();
    const entry = list.getByRole('button', { name: /^Laptop losses/ });
    await entry.waitFor();
    expect(await original.count()).toBe(0);

    await list.getByRole('button', { name: 'New conversation' }).click();
    await eventually(
      'an empty conversation',
      async () => (await chat.conversation.locator(':scope > li').count()) === 0,
    );
    await entry.click();
    await eventually(
      'the stored conversation to open',
      async () => (await chat.conversation.locator(':scope > li').count()) === 2,
    );
    expect(await chat.conversation.innerText()).toContain('security desk');
    expect(await entry.getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'chat-conversations.png');

    const row = list.locator('li.conversation').filter({ hasText: 'Laptop losses' });
    await row.getByRole('button', { name: /^Delete/ }).click();
    await row
      .getByRole('group', { name: 'Confirm deletion' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await eventually('the conversation to leave the list', async () => (await entry.count()) === 0);
    expect(await chat.conversation.locator(':scope > li').count()).toBe(0);
  });
});
