/**
 * A conversation in Chinese in a real browser against the real server and the scripted LLM: the
 * uploaded Chinese document is found for a Chinese question (word segmentation before BM25), the
 * answer quotes its Chinese sentence with a citation that opens the passage, and a follow-up question
 * in the same conversation finds the other section.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emptyLibrary, llmRequests, resetLlm, seedDocument } from './support/api';
import { describeWhenServerHas, eventually, launchBrowser, openPage, screenshot } from './support/browser';
import { ChatPage } from './pages/chat.page';

const SUPER_BOWL = path.join(__dirname, 'fixtures', 'super-bowl-zh.md');

describeWhenServerHas(['chat', 'uploadDocuments'], 'a Chinese conversation', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;

  beforeAll(async () => {
    await emptyLibrary();
    browser = await launchBrowser();
    await seedDocument(SUPER_BOWL, 'super-bowl-zh.md');
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

  it('answers a Chinese question from the Chinese document, cites it, and follows up', async () => {
    await chat.goto();
    await chat.ask('哪支球队赢得了第50届超级碗？');
    expect(await chat.waitForAnswer()).toBe('done');
    const answer = chat.lastAnswer();
    expect(await answer.locator('.answer-text').innerText()).toContain(
      '丹佛野马队以24比10击败卡罗莱纳黑豹队，赢得了第50届超级碗',
    );
    const marker = answer.locator('button.cite').first();
    expect(await marker.getAttribute('aria-label')).toMatch(/^Source \d+: 第50届超级碗 › 比赛结果$/);
    await screenshot(page, 'chat-chinese-answer.png');

    await marker.click();
    const dialog = chat.citationDialog;
    await dialog.waitFor();
    expect(await dialog.locator('mark.cited-span').innerText()).toContain('赢得了第50届超级碗');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await chat.sendButton.waitFor();
    await chat.ask('比赛在哪里举行？');
    await eventually(
      'the second answer',
      async () => (await chat.conversation.locator('li.message-assistant').count()) === 2,
    );
    expect(await chat.waitForAnswer()).toBe('done');
    expect(await chat.lastAnswer().locator('.answer-text').innerText()).toContain(
      '加利福尼亚州圣克拉拉的李维斯体育场举行',
    );
    expect(await chat.lastAnswer().locator('.sources').innerText()).toContain('第50届超级碗 › 比赛场地');
    await screenshot(page, 'chat-chinese-conversation.png');

    // The model was asked with the Chinese passages, never told that nothing was found.
    const asked = (await llmRequests()).filter((request) => request.kind === 'answer');
    expect(asked.map((request) => request.question)).toEqual([
      '哪支球队赢得了第50届超级碗？',
      '比赛在哪里举行？',
    ]);
  });
});
