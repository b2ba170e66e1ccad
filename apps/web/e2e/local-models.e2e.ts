/**
 * The in-process models in a real browser, with no network and no LLM endpoint: a second API server
 * runs all-MiniLM-L6-v2 for the embeddings and SmolLM2 (LLM_PROVIDER=local) for the search's variants
 * and HyDE passage, from the models folder the models step fills. The settings drawer says which models
 * serve (the local model with its pinned sha256 once loaded); a hybrid question with expansion and HyDE on
 * gets its HyDE passage written by the language model, an extractive answer whose citation opens the
 * passage holding its quote, and the scripted LLM is never called.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emptyLibrary, llmRequests, resetLlm, seedDocument } from './support/api';
import { describeWhenServerHas, eventually, launchBrowser, openPage, screenshot } from './support/browser';
import {
  freePort,
  startApi,
  startWeb,
  stopProcesses,
  waitForApi,
  waitForWeb,
  WORKSPACE_ROOT,
  type ApiProcess,
} from './support/stack';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');
/** A small model on two busy cores: generous, but the search gives up on a branch long before this. */
const ANSWER_TIMEOUT_MS = 150_000;

describeWhenServerHas(['chat', 'uploadDocuments'], 'local models', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;
  let local: ApiProcess | null = null;
  let web: ChildProcess | null = null;
  let webUrl = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    // Its own web app beside its own server: a streamed answer reaches the page as it is written.
    const webPort = await freePort();
    webUrl = `http://127.0.0.1:${webPort}`;
    local = await startApi({
      llmUrl: null,
      webUrl,
      log: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-api-local-models.log'),
      env: {
        EMBEDDINGS_PROVIDER: 'minilm',
        LLM_PROVIDER: 'local',
        // Short generations keep the test quick on two cores: the HyDE passage only has to exist.
        LLM_LOCAL_MAX_TOKENS: '96',
        LLM_TIMEOUT_MS: '120000',
      },
    });
    const webLog = path.join(WORKSPACE_ROOT, 'tmp', 'e2e-web-local-models.log');
    web = startWeb({ port: webPort, apiUrl: local.url, log: webLog });
    await Promise.all([waitForApi(local), waitForWeb(webUrl, web, webLog)]);
    await emptyLibrary(local.url);
    await seedDocument(HANDBOOK, 'staff-handbook.md', local.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    stopProcesses([local?.child.pid, web?.pid].filter((pid): pid is number => typeof pid === 'number'));
  });

  beforeEach(async () => {
    ({ context, page, pageErrors } = await openPage(browser));
    chat = new ChatPage(page, webUrl);
    await resetLlm();
    await chat.goto();
    await eventually('the status badge to report the local model', async () =>
      (await chat.statusBadge.innerText()).includes('local: smollm2'),
    );
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  /** The drawer's row for one job, by its role. */
  const modelRow = (role: string) =>
    chat.drawer.locator(`[data-testid="serving-models"] [data-role="${role}"]`);

  it(
    'says which models serve, then answers a hybrid question with HyDE written by the local model',
    async () => {
      await chat.openSettings();
      await modelRow('Embeddings').waitFor();
      expect(await modelRow('Embeddings').innerText()).toContain('all-MiniLM-L6-v2');
      expect(await modelRow('Embeddings').innerText()).toContain("384-d, run by the server's process.");
      expect(await modelRow('Query variants and HyDE').innerText()).toContain('smollm2-135m-instruct-q4');
      expect(await modelRow('Answers').innerText()).toContain('extractive');
      await chat.drawer.getByLabel('Hybrid', { exact: true }).check();
      await chat.setMode('Query expansion', 'On');
      await chat.setMode('HyDE', 'On');
      await chat.setToggle('Show retrieval trace', true);
      await chat.closeSettings();

      await chat.ask('How long is parental leave?');
      const phase = await chat.waitForAnswer(ANSWER_TIMEOUT_MS);
      const answer = chat.lastAnswer();
      // An error shows its message in the answer: the failure says it.
      expect({ phase, text: phase === 'done' ? '' : await answer.innerText() }).toEqual({
        phase: 'done',
        text: '',
      });
      expect(await answer.locator('.answer-text').innerText()).toContain(
        'sixteen weeks of fully paid parental leave',
      );

      const panel = answer.locator('details.retrieval-panel');
      await panel.waitFor();
      // The model wrote the HyDE passage; its variants either passed the expander's checks or the trace
      // says why they were dropped while the other branches carried on.
      const hyde = panel.getByRole('region', { name: 'HyDE passage' });
      expect(await hyde.innerText()).toContain('written by the language model');
      expect((await hyde.locator('blockquote').innerText()).trim().length).toBeGreaterThan(0);
      expect(await panel.locator('.chip[data-branch-kind="hyde"]').count()).toBeGreaterThan(0);
      const variants = panel.getByRole('region', { name: 'Query variants' });
      const warnings = panel.getByRole('list', { name: 'Retrieval warnings' });
      const variantCount = (await variants.count()) > 0 ? await variants.locator('li').count() : 0;
      if (variantCount > 0) {
        expect(await variants.innerText()).toContain('written by the language model');
      } else {
        expect(await warnings.innerText()).toMatch(/expan/i);
      }
      await screenshot(page, 'local-models-trace.png');

      // The citation opens the passage that holds the quote, with the quote marked.
      await answer.locator('.answer-text button.cite').first().click();
      await chat.citationDialog.waitFor();
      const marked = await chat.citationDialog.locator('.cited-passage mark.cited-span').allInnerTexts();
      expect(marked.join(' ')).toContain('sixteen weeks of fully paid parental leave');

      // Once the model has loaded, the drawer shows its pinned sha256 and how long loading took.
      await page.keyboard.press('Escape');
      await page.reload();
      await chat.openSettings();
      await eventually('the drawer to show the loaded model', async () =>
        /sha256 [0-9a-f]{12}…, loaded in \d+\.\d s/.test(
          await modelRow('Query variants and HyDE').innerText(),
        ),
      );
      await modelRow('Answers').scrollIntoViewIfNeeded();
      await screenshot(page, 'local-models-drawer.png', false);
      expect(await llmRequests()).toEqual([]);
    },
    ANSWER_TIMEOUT_MS + 60_000,
  );
});
