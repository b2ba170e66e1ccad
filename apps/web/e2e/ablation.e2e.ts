/**
 * The ablation view in a real browser against the real server and the scripted LLM: a bank evaluated
 * under every combination of ranker, expansion, HyDE and rerank the server can run (24 here: an LLM is
 * configured, and the chat model reranks listwise), the job followed to its matrix and chart, the best
 * row highlighted by the stated rule, the LLM calls per row matching what the LLM server received, the
 * phone layout (cards), and "Use these settings" writing the best combination into the drawer's store.
 */
import path from 'node:path';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import type { ChunkView, Page as ApiPage, QuestionBank } from '@lumina/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { apiJson, emptyLibrary, llmRequests, resetLlm, seedDocument } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { AblationPage } from './pages/ablation.page';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');

/** Questions and the section whose passage answers each. */
const IN_SCOPE: [string, string][] = [
  ['How many days of paid vacation does every employee receive?', 'Vacation'],
  ['How long is fully paid parental leave?', 'Parental leave'],
  ['How often do engineers receive a new laptop?', 'Laptops'],
  ['Which trips are taken by train?', 'Trains and flights'],
];
const OUT_OF_SCOPE = 'What is the boiling point of mercury?';

const DEFAULTS = {
  ranker: DEFAULT_SETTINGS.ranker,
  enableQueryExpansion: false,
  enableHyDE: false,
  enableRerank: false,
};

describeWhenServerHas(['startAblation', 'getAblation', 'listBankAblations'], 'ablation view', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let bankUrl: string;

  beforeAll(async () => {
    await emptyLibrary();
    browser = await launchBrowser();
    const handbookId = await seedDocument(HANDBOOK, 'staff-handbook.md');
    const chunks = await apiJson<ApiPage<ChunkView>>('GET', `/documents/${handbookId}/chunks?limit=100`);
    const chunkOf = new Map(chunks.items.map((chunk) => [chunk.headingPath.at(-1) ?? '', chunk.id]));
    const bank = await apiJson<QuestionBank>('POST', '/question-banks', {
      name: `Ablation ${Date.now().toString(36)}`,
    });
    await apiJson('POST', `/question-banks/${bank.id}/items`, {
      items: [
        ...IN_SCOPE.map(([question, section]) => ({
          question,
          expectedSources: [{ documentId: handbookId, chunkId: chunkOf.get(section) }],
        })),
        { question: OUT_OF_SCOPE, inScope: false },
      ],
    });
    bankUrl = `${WEB_URL}/question-banks/${bank.id}`;
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  it('runs every combination, shows the matrix and chart with the best row, and applies it', async () => {
    ({ context, page, pageErrors } = await openPage(browser));
    // A setting the person chose before: the ablation shares it, and applying a combination keeps it.
    await page.goto(WEB_URL);
    await page.evaluate(() =>
      window.localStorage.setItem(
        'lumina.settings',
        JSON.stringify({ state: { overrides: { topK: 4 } }, version: 1 }),
      ),
    );
    await page.goto(bankUrl);
    await new ChatPage(page).waitForHydration();
    const ablation = new AblationPage(page);
    await resetLlm();
    await ablation.start();
    // Progress while it runs (the job is in the background; the page polls).
    await eventually(
      'the ablation to show its progress or its end',
      async () =>
        (await ablation.section.getByRole('progressbar', { name: 'Ablation' }).count()) > 0 ||
        (await ablation.status()) === 'completed',
    );
    await ablation.waitUntilDone(240_000);
    expect(await ablation.status()).toBe('completed');

    const rows = await ablation.rows();
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((row) => row.Combination.replace(/\s*Best$/, ''))).size).toBe(24);
    expect(rows[0].Combination).toMatch(/^bm25 only/);
    expect(rows.some((row) => row.Combination.startsWith('hybrid · expansion · HyDE · rerank'))).toBe(true);
    for (const row of rows) {
      expect(row['nDCG@10']).toMatch(/^\d\.\d{3}$/);
      expect(row['MRR@10']).toMatch(/^\d\.\d{3}$/);
      expect(row['Latency p50']).toMatch(/^\d+\.\d ms$/);
      expect(row['LLM calls']).toMatch(/^\d+$/);
      expect(row['In-scope refused']).toMatch(/^\d+%$/);
      expect(row['Out-of-scope answered']).toMatch(/^\d+%$/);
    }
    // Each enhancement costs one call per question (5): the LLM calls column says what the runs made …
    const calls = rows.map((row) => Number(row['LLM calls']));
    expect(calls[0]).toBe(0);
    expect(Math.max(...calls)).toBe(15);
    // … and the scripted LLM server received exactly that many expansion, HyDE and rerank requests.
    const received = (await llmRequests()).filter((r) => ['expansion', 'hyde', 'rerank'].includes(r.kind));
    expect(received).toHaveLength(calls.reduce((sum, n) => sum + n, 0));

    // One best row, by the stated rule: the highest nDCG@10, then fewer LLM calls, then lower latency.
    expect(await ablation.section.getByTestId('best-rule').innerText()).toMatch(
      /highest nDCG@10.*fewer LLM calls.*lower median latency/,
    );
    await expect1(ablation.bestRow());
    const best = rows.find((row) => row.Combination.endsWith('Best'))!;
    const ndcg = rows.map((row) => Number(row['nDCG@10']));
    expect(Number(best['nDCG@10'])).toBe(Math.max(...ndcg));
    const tied = rows.filter((row) => Number(row['nDCG@10']) === Math.max(...ndcg));
    expect(Number(best['LLM calls'])).toBe(Math.min(...tied.map((row) => Number(row['LLM calls']))));

    // The chart: nDCG@10 and MRR@10 for each combination.
    await ablation.waitForBars(48);
    expect(await ablation.chart.locator('figcaption').innerText()).toMatch(/nDCG@10 and MRR@10/);
    await screenshot(page, 'ablation-matrix.png');

    // "Use these settings": the best combination becomes the drawer's, the earlier topK stays.
    await ablation.useBest();
    await ablation.section.getByTestId('ablation-applied').waitFor();
    const bestLabel = best.Combination.replace(/\s*Best$/, '');
    expect(await ablation.section.getByTestId('ablation-applied').innerText()).toContain(bestLabel);
    const stored = (await new ChatPage(page).storedOverrides()) as Record<string, unknown>;
    const switches = {
      ranker: bestLabel.split(' ')[0],
      enableQueryExpansion: bestLabel.includes('expansion'),
      enableHyDE: bestLabel.includes('HyDE'),
      enableRerank: bestLabel.includes('rerank'),
    };
    const expected: Record<string, unknown> = { topK: 4 };
    for (const [key, value] of Object.entries(switches))
      if (value !== DEFAULTS[key as keyof typeof DEFAULTS]) expected[key] = value;
    expect(stored).toEqual(expected);
    // The evaluate section's summary of the drawer's settings now names the best ranker (the best row
    // depends on latency when nDCG@10 and LLM calls tie, so any ranker may win).
    const rankerName = switches.ranker === 'bm25' ? 'BM25' : switches.ranker;
    expect(await page.locator('.settings-summary').first().innerText()).toMatch(
      new RegExp(`^${rankerName} · top 4 of 30`),
    );
    await screenshot(page, 'ablation-applied.png');
  });

  it('shows the latest ablation as cards on a phone', async () => {
    ({ context, page, pageErrors } = await openPage(browser, { width: 390, height: 844 }));
    await page.goto(bankUrl);
    await new ChatPage(page).waitForHydration();
    const ablation = new AblationPage(page);
    await ablation.waitUntilDone(30_000);
    expect(await ablation.matrix.locator('tbody tr').count()).toBe(24);
    // Under 600 px each row is a card whose cells carry their column's name.
    const display = await ablation.matrix
      .locator('tbody tr')
      .first()
      .evaluate((row) => getComputedStyle(row).display);
    expect(display).toBe('block');
    expect(await ablation.bestRow().locator('td').nth(2).getAttribute('data-label')).toBe('nDCG@10');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await ablation.waitForBars(48);
    await screenshot(page, 'ablation-matrix-phone.png');
  });
});

async function expect1(locator: Locator): Promise<void> {
  expect(await locator.count()).toBe(1);
}
