/**
 * The shell: the status badge reports API, database, Redis and LLM; the queue dashboard is linked;
 * every page fits a 375 px wide phone without sideways scrolling; the settings drawer fits it too.
 */
import type { Browser } from 'playwright-core';
import { API_URL, eventually, launchBrowser, openPage, screenshot, WEB_URL } from './support/browser';
import { ChatPage } from './pages/chat.page';

describe('layout and status', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the server status and links the queue dashboard', async () => {
    const { context, page, pageErrors } = await openPage(browser);
    const chat = new ChatPage(page);
    await chat.goto();
    expect(await chat.waitForHydration()).toBe('online');
    const badge = (await chat.statusBadge.innerText()).replace(/\s+/g, ' ');
    expect(badge).toContain('API online');
    expect(badge).toContain('DB up');
    expect(badge).toContain('Redis up');
    expect(badge).toMatch(/LLM (unknown|offline|scripted-e2e|up)/);
    const queues = page.getByRole('link', { name: /^Queues/ });
    expect(await queues.getAttribute('href')).toBe(`${API_URL}/admin/queues`);
    const dashboard = await fetch(`${API_URL}/admin/queues`);
    expect(dashboard.status).toBe(200);
    await screenshot(page, 'chat-home.png');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it.each(['/', '/documents', '/question-banks', '/evals'])(
    'loads %s without a failed request, with an icon',
    async (route) => {
      const { context, page, pageErrors } = await openPage(browser);
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400 && response.url().startsWith(WEB_URL)) {
          failed.push(`${response.status()} ${response.url()}`);
        }
      });
      await page.goto(`${WEB_URL}${route}`, { waitUntil: 'load' });
      await new ChatPage(page).waitForHydration();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      const icon = await page.locator('link[rel~="icon"]').first().getAttribute('href');
      expect(icon).toBeTruthy();
      const served = await fetch(new URL(icon!, WEB_URL));
      expect(served.status).toBe(200);
      expect((await fetch(`${WEB_URL}/favicon.ico`)).status).toBe(200);
      expect(failed).toEqual([]);
      await context.close();
      expect(pageErrors).toEqual([]);
    },
  );

  it.each(['/', '/documents', '/question-banks', '/evals'])(
    'fits a 375 px wide screen: %s',
    async (route) => {
      const { context, page, pageErrors } = await openPage(browser, { width: 375, height: 812 });
      const chat = new ChatPage(page);
      await page.goto(`${WEB_URL}${route}`, { waitUntil: 'load' });
      await chat.waitForHydration();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const name = route === '/' ? 'chat' : route.slice(1);
      await screenshot(page, `mobile-${name}.png`);

      if (route === '/') {
        await chat.openSettings();
        await eventually('the drawer to fill the screen width', async () => {
          const box = await chat.drawer.boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= 375.5;
        });
        await screenshot(page, 'mobile-settings-drawer.png', false);
        await chat.closeSettings();
        await page.getByRole('button', { name: 'Conversations' }).click();
        await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      }
      await context.close();
      expect(pageErrors).toEqual([]);
    },
  );
});
