/**
 * The chat shell in a real browser, against a running web app (WEB_URL). No API server is
 * needed: the status badge must then say the API is unreachable, and calls to the search
 * endpoint are answered by the browser's request interception where a test needs them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ChatPage } from './pages/chat.page';
import { artifact, eventually, launchBrowser } from './support/browser';

describe('chat shell', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let chat: ChatPage;
  let pageErrors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function openContext(viewport = { width: 1280, height: 860 }) {
    context = await browser.newContext({ viewport });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    chat = new ChatPage(page);
  }

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  it('shows the heading, the labelled question box and the server status', async () => {
    await openContext();
    await chat.goto();

    expect(await chat.heading.textContent()).toBe('Lumina');
    expect(await chat.question.evaluate((element) => element.tagName)).toBe('TEXTAREA');
    expect(await chat.sendButton.isDisabled()).toBe(true);

    const state = await chat.apiState();
    const badge = (await chat.statusBadge.innerText()).replace(/\s+/g, ' ');
    if (state === 'unreachable') {
      expect(badge).toContain('API unreachable');
      expect(badge).toContain('DB unknown');
      expect(badge).toContain('Redis unknown');
    } else {
      // An API server happens to be running: the badge must then report a real state.
      expect(['online', 'error']).toContain(state);
    }
    await page.screenshot({ path: artifact('chat-home.png'), fullPage: true, animations: 'disabled' });
  });

  it('keeps Shift+Enter as a new line instead of sending', async () => {
    await openContext();
    await chat.goto();

    await chat.question.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');

    expect(await chat.question.inputValue()).toBe('first line\nsecond line');
    expect(await chat.conversation.locator(':scope > li').count()).toBe(0);
  });

  it('toggles HyDE in the settings drawer and keeps it after a reload', async () => {
    await openContext();
    await chat.goto();

    await chat.openSettings();
    await chat.waitForChecked(chat.hyde, false);
    await chat.hyde.check();
    await chat.waitForChecked(chat.hyde, true);
    expect(await chat.storedOverrides()).toEqual({ enableHyDE: true });
    await page.screenshot({ path: artifact('settings-drawer.png'), animations: 'disabled' });
    await chat.closeSettings();

    await chat.reload();
    await chat.openSettings();
    await chat.waitForChecked(chat.hyde, true);
    await page.screenshot({ path: artifact('settings-drawer-after-reload.png'), animations: 'disabled' });

    await chat.resetButton.click();
    await chat.waitForChecked(chat.hyde, false);
    expect(await chat.storedOverrides()).toEqual({});

    await chat.reload();
    await chat.openSettings();
    await chat.waitForChecked(chat.hyde, false);
  });

  it('sends the merged settings and explains a missing search endpoint', async () => {
    await openContext();
    let sentBody: unknown;
    await page.route('**/rag/search', async (route) => {
      sentBody = route.request().postDataJSON();
      await route.fulfill({
        status: 404,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify({ statusCode: 404, message: 'Cannot POST /rag/search', error: 'Not Found' }),
      });
    });
    await chat.goto();

    await chat.openSettings();
    await chat.hyde.check();
    await chat.closeSettings();

    await chat.question.fill('How long is parental leave?');
    await chat.question.press('Enter');

    const alert = chat.conversation.getByRole('alert');
    await alert.waitFor({ state: 'visible' });
    expect(await alert.innerText()).toContain("Search isn't available on this server yet");
    expect(await chat.conversation.innerText()).toContain('How long is parental leave?');
    expect(await chat.question.inputValue()).toBe('');
    expect(sentBody).toMatchObject({
      query: 'How long is parental leave?',
      settings: { enableHyDE: true, ranker: 'bm25', topK: 6, candidateK: 30 },
    });
    await page.screenshot({ path: artifact('chat-search-404.png'), fullPage: true, animations: 'disabled' });
  });

  it('shows the passages a search returns', async () => {
    await openContext();
    await page.route('**/rag/search', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify({
          results: [
            {
              chunkId: 'c1',
              documentId: 'd1',
              documentTitle: 'Employee handbook',
              headingPath: ['Leave', 'Parental leave'],
              anchor: 'parental-leave',
              text: 'Every parent is entitled to sixteen weeks of paid leave.',
              score: 0.8123,
              provenance: [{ branch: 'bm25', rank: 1, score: 7.2 }],
            },
          ],
          expansions: [],
          hyde: null,
          timings: { total: 18 },
          warnings: [],
          belowThreshold: false,
        }),
      }),
    );
    await chat.goto();

    await chat.question.fill('How long is parental leave?');
    await chat.sendButton.click();

    const passages = page.getByRole('list', { name: 'Top passages' });
    await passages.waitFor({ state: 'visible' });
    const text = await passages.innerText();
    expect(text).toContain('Employee handbook');
    expect(text).toContain('Leave › Parental leave');
    expect(text).toContain('sixteen weeks of paid leave');
    expect(text).toContain('score 0.812');
    await page.screenshot({ path: artifact('chat-passages.png'), fullPage: true, animations: 'disabled' });
  });

  it('fits a 375 px wide screen without sideways scrolling', async () => {
    await openContext({ width: 375, height: 812 });
    await chat.goto();
    await chat.apiState();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: artifact('chat-mobile.png'), fullPage: true, animations: 'disabled' });

    await chat.openSettings();
    await eventually('the drawer to fill the screen width', async () => {
      const box = await chat.drawer.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 375.5;
    });
    await page.screenshot({ path: artifact('settings-drawer-mobile.png'), animations: 'disabled' });
  });
});
