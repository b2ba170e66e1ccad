/**
 * The shell: the status badge reports API, database, Redis and LLM; the queue dashboard is linked;
 * every page fits a 375 px wide phone without sideways scrolling; the settings drawer fits it too; on a
 * 390×844 phone the header is one line, the question box is compact until focused, tables are cards
 * and the answers get at least 60% of the screen.
 */
import type { Browser } from 'playwright-core';
import { apiJson, emptyLibrary } from './support/api';
import { API_URL, eventually, launchBrowser, openPage, screenshot, WEB_URL } from './support/browser';
import { ChatPage } from './pages/chat.page';

describe('layout and status', () => {
  let browser: Browser;

  beforeAll(async () => {
    await emptyLibrary();
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

  it('on a 390×844 phone: one-line header, compact question box, answers on most of the screen, tables as cards', async () => {
    const { context, page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
    const chat = new ChatPage(page);
    await chat.goto();
    const header = page.locator('header.app-header');
    await screenshot(page, 'phone-header.png', false);
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(56);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Documents' }).waitFor();
    await screenshot(page, 'phone-menu.png', false);
    await page.getByRole('button', { name: 'Close menu' }).click();
    await nav.waitFor({ state: 'hidden' });

    const composer = page.locator('form.composer');
    const compact = (await composer.boundingBox())!.height;
    expect(compact).toBeLessThanOrEqual(72);
    await chat.question.focus();
    await eventually('the question box to open up when focused', async () => {
      const box = await composer.boundingBox();
      return box !== null && box.height > compact + 40;
    });
    await chat.ask('How many days of paid vacation does every employee receive?');
    expect(await chat.waitForAnswer()).not.toBe('');
    await chat.question.blur();
    await eventually('the question box to be compact again', async () => {
      const box = await composer.boundingBox();
      return box !== null && box.height <= compact + 1;
    });
    const share = await page.evaluate(() => {
      const top = document.querySelector('header.app-header')!.getBoundingClientRect().bottom;
      const bottom = document.querySelector('form.composer')!.getBoundingClientRect().top;
      return (bottom - top) / window.innerHeight;
    });
    expect(share).toBeGreaterThanOrEqual(0.6);
    await screenshot(page, 'phone-chat.png', false);

    // Tables become cards: a row a card, each cell labelled with its column.
    await apiJson('POST', '/question-banks', { name: `Phone card bank ${Date.now().toString(36)}` });
    await page.goto(`${WEB_URL}/question-banks`, { waitUntil: 'load' });
    await chat.waitForHydration();
    const row = page.getByRole('table', { name: 'Question banks' }).locator('tbody tr').first();
    await row.waitFor();
    const cell = row.locator('td').first();
    await eventually(
      'the cells labelled with their columns',
      async () => (await cell.getAttribute('data-label')) === 'Name',
    );
    expect(await cell.evaluate((element) => getComputedStyle(element).display)).toBe('block');
    const rowBox = (await row.boundingBox())!;
    const cellBoxes = await row
      .locator('td')
      .evaluateAll((cells) =>
        cells.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.getBoundingClientRect().top),
      );
    expect(cellBoxes.length).toBeGreaterThan(1);
    expect(new Set(cellBoxes.map(Math.round)).size).toBe(cellBoxes.length);
    expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-question-banks.png', false);
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
