/**
 * Question banks and evaluations in a real browser against the real server: a template and a bank
 * made in the UI, items imported and paged through, added, edited and deleted, exported, generated
 * by the (scripted) LLM; "Evaluate with current settings" twice with different settings; the runs
 * table, the metric-over-time chart and the per-item comparison of the two runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type {
  ChunkView,
  CreatedApiKey,
  Page as ApiPage,
  QuestionBankItem,
  QuestionTemplate,
} from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson, emptyLibrary, seedDocument } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { ChatPage } from './pages/chat.page';

const HANDBOOK = path.join(__dirname, 'fixtures', 'staff-handbook.md');

/** Questions and the section (heading) whose passage answers each: judged per passage. */
const IN_SCOPE: [string, string][] = [
  ['How many days of paid vacation does every employee receive?', 'Vacation'],
  ['Until when can unused vacation days be carried over?', 'Vacation'],
  ['How long is fully paid parental leave?', 'Parental leave'],
  ['When is a doctor note required for sick leave?', 'Sick leave'],
  ['How often do engineers receive a new laptop?', 'Laptops'],
  ['Where is a stolen laptop reported?', 'Laptops'],
  ['What does the company reimburse for the home office?', 'Home office'],
  ['Which trips are taken by train?', 'Trains and flights'],
  ['In which class are flights booked?', 'Trains and flights'],
  ['When are travel expenses submitted?', 'Expenses'],
];
const OUT_OF_SCOPE = ['What is the boiling point of mercury?', 'Who won the chess olympiad in 1994?'];

describeWhenServerHas(
  [
    'createQuestionBank',
    'listQuestionBankItems',
    'importQuestionBankItems',
    'evaluateQuestionBank',
    'listEvalRuns',
    'compareEvalRuns',
    'createQuestionTemplate',
  ],
  'question banks and evaluations',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];
    let handbookId: string;
    let chunkOf: Map<string, string>;
    const stamp = Date.now().toString(36);

    beforeAll(async () => {
      await emptyLibrary();
      browser = await launchBrowser();
      handbookId = await seedDocument(HANDBOOK, 'staff-handbook.md');
      const chunks = await apiJson<ApiPage<ChunkView>>('GET', `/documents/${handbookId}/chunks?limit=100`);
      chunkOf = new Map(chunks.items.map((chunk) => [chunk.headingPath.at(-1) ?? '', chunk.id]));
    });

    afterAll(async () => {
      await browser?.close();
    });

    beforeEach(async () => {
      ({ context, page, pageErrors } = await openPage(browser));
    });

    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    async function hydrated(): Promise<void> {
      await new ChatPage(page).waitForHydration();
    }

    it('creates a bank, pages through its items, edits them, evaluates twice and compares the runs', async () => {
      // A template and a bank made from it.
      await page.goto(`${WEB_URL}/question-banks`);
      await hydrated();
      await page.getByText('Question templates').click();
      const templateForm = page.getByRole('form', { name: 'New template' });
      await templateForm.getByLabel('Name').fill(`Handbook facts ${stamp}`);
      await templateForm.getByLabel('Kind').selectOption('definition');
      await templateForm.getByRole('button', { name: 'Create template' }).click();
      await eventually(
        'the template to be listed',
        async () =>
          (await page.getByRole('option', { name: `Handbook facts ${stamp} (definition)` }).count()) > 0,
      );

      await page.getByLabel('Name', { exact: true }).first().fill(`Handbook questions ${stamp}`);
      await page.locator('#bank-template').selectOption({ label: `Handbook facts ${stamp} (definition)` });
      await page.getByLabel('Description').fill('Facts from the staff handbook.');
      await page.getByRole('button', { name: 'Create bank' }).click();
      await page.getByRole('heading', { level: 1, name: `Handbook questions ${stamp}` }).waitFor();
      const bankUrl = page.url();
      expect(bankUrl).toMatch(/\/question-banks\/[0-9a-f-]{36}$/);
      await hydrated();

      // Import twelve items (pasted JSON), with a report.
      const items = [
        ...IN_SCOPE.map(([question, section]) => ({
          question,
          inScope: true,
          expectedSources: [{ chunkId: chunkOf.get(section) }],
          tags: ['handbook'],
        })),
        ...OUT_OF_SCOPE.map((question) => ({ question, inScope: false })),
      ];
      const importForm = page.getByRole('form', { name: 'Import questions' });
      await importForm.getByLabel('Format').selectOption('json');
      await importForm.getByLabel(/or paste/).fill(JSON.stringify(items));
      await importForm.getByRole('button', { name: 'Import' }).click();
      await eventually(
        'the import report',
        async () =>
          (await page
            .getByText('Imported 12 rows: 12 added, 0 unchanged, 0 updated, 0 rejected.')
            .count()) === 1,
      );
      await eventually(
        'the item count',
        async () => (await page.getByTestId('bank-item-count').innerText()) === '12',
      );

      // Page through the items: 10, then 2.
      const table = page.getByRole('table', { name: 'Questions' });
      const pager = page.getByRole('navigation', { name: 'Questions pages' });
      await eventually('the first page', async () =>
        (await pager.innerText()).includes('Page 1 of 2 · 12 in all'),
      );
      expect(await table.locator('tbody tr').count()).toBe(10);
      expect(await table.innerText()).toContain(IN_SCOPE[0][0]);
      await pager.getByRole('button', { name: 'Next' }).click();
      await eventually('the second page', async () => (await pager.innerText()).includes('Page 2 of 2'));
      await eventually('two items', async () => (await table.locator('tbody tr').count()) === 2);
      expect(await table.innerText()).toContain(OUT_OF_SCOPE[1]);
      await screenshot(page, 'question-bank-items.png');

      // The page and the filter live in the address: a reload shows the same page.
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      await page.reload();
      await hydrated();
      await eventually('page 2 after the reload', async () =>
        (await pager.innerText()).includes('Page 2 of 2 · 12 in all'),
      );
      await eventually(
        'two items after the reload',
        async () => (await table.locator('tbody tr').count()) === 2,
      );
      await page.getByLabel('Scope').selectOption('false');
      await eventually('the out-of-scope filter in the address', async () => {
        const params = new URL(page.url()).searchParams;
        return params.get('scope') === 'false' && params.get('page') === null;
      });
      await page.reload();
      await hydrated();
      expect(await page.getByLabel('Scope').inputValue()).toBe('false');
      await eventually('only the out-of-scope items', async () => {
        const text = await table.innerText();
        return (await table.locator('tbody tr').count()) === 2 && !text.includes(IN_SCOPE[0][0]);
      });
      await page.getByLabel('Scope').selectOption('');
      await pager.getByRole('button', { name: 'Next' }).click();
      await eventually('the second page again', async () =>
        (await pager.innerText()).includes('Page 2 of 2'),
      );

      // Edit one, add one, delete one.
      await table.getByRole('button', { name: `Edit "${OUT_OF_SCOPE[1]}"` }).click();
      const editForm = page.getByRole('form', { name: 'Save question' });
      await editForm.getByLabel('Question').fill('Who won the chess olympiad in 1996?');
      await editForm.getByRole('button', { name: 'Save question' }).click();
      await eventually('the edited question', async () =>
        (await table.innerText()).includes('chess olympiad in 1996'),
      );
      await page.getByRole('button', { name: 'Add a question' }).click();
      const addForm = page.getByRole('form', { name: 'Add question' });
      await addForm.getByLabel('Question').fill('How many weeks of parental leave are paid?');
      // The expected source is found by searching the library as one types, not by its id.
      await addForm.getByLabel('Find sources in the library').pressSequentially('parental leave weeks');
      const matches = addForm.getByRole('list', { name: 'Matching passages' });
      // Passages are told apart by their first words, not only by their headings.
      const addPassage = matches.getByRole('button', {
        name: /^Add the passage Staff Handbook › .*Parental leave — “Parents are entitled to sixteen weeks of fully…”$/,
      });
      await addPassage.waitFor();
      await screenshot(page, 'question-source-picker.png');
      await addPassage.click();
      await eventually('the passage added', async () => (await addPassage.innerText()) === 'Passage added');
      const picked = addForm.getByRole('list', { name: 'Expected sources picked' });
      expect(await picked.innerText()).toMatch(/Staff Handbook › .*Parental leave/);
      expect(await addForm.getByLabel('Expected sources', { exact: true }).inputValue()).toBe(
        `chunk:${chunkOf.get('Parental leave')}`,
      );
      await addForm.getByRole('button', { name: 'Add question' }).click();
      await eventually(
        'thirteen items',
        async () => (await page.getByTestId('bank-item-count').innerText()) === '13',
      );
      const bankId = bankUrl.split('/').at(-1)!;
      const added = await apiJson<ApiPage<QuestionBankItem>>(
        'GET',
        `/question-banks/${bankId}/items?limit=100`,
      );
      expect(
        added.items.find((item) => item.question === 'How many weeks of parental leave are paid?')
          ?.expectedSources,
      ).toEqual([{ chunkId: chunkOf.get('Parental leave'), documentId: handbookId }]);
      // Opened again, the stored passage is named by its document, headings and first words, not its id.
      await table.getByRole('button', { name: 'Edit "How many weeks of parental leave are paid?"' }).click();
      const reopened = page
        .getByRole('form', { name: 'Save question' })
        .getByRole('list', { name: 'Expected sources picked' });
      await eventually('the stored passage named', async () =>
        /Staff Handbook › .*Parental leave — “Parents are entitled/.test(await reopened.innerText()),
      );
      expect(await reopened.innerText()).not.toContain('chunk:');
      await screenshot(page, 'question-source-named.png');
      await page.getByRole('form', { name: 'Save question' }).getByRole('button', { name: 'Cancel' }).click();
      await table.getByRole('button', { name: 'Delete "Who won the chess olympiad in 1996?"' }).click();
      await table
        .getByRole('group', { name: 'Delete this question?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await eventually(
        'twelve items again',
        async () => (await page.getByTestId('bank-item-count').innerText()) === '12',
      );

      // Export as JSON: a file with the items.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export JSON' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.json$/);
      const exported = JSON.parse(readFileSync((await file.path())!, 'utf8')) as {
        items: { question: string }[];
      };
      expect(exported.items.map((item) => item.question)).toContain(
        'How many weeks of parental leave are paid?',
      );

      // Importing that file again adds nothing: every row matches the item it was exported from.
      await importForm.getByLabel(/or paste/).fill('');
      await importForm.getByLabel('File').setInputFiles((await file.path())!);
      await importForm.getByRole('button', { name: 'Import' }).click();
      await eventually(
        'the re-import report',
        async () =>
          (await page
            .getByText('Imported 12 rows: 0 added, 12 unchanged, 0 updated, 0 rejected.')
            .count()) === 1,
      );
      await screenshot(page, 'question-bank-reimport.png');
      expect(await page.getByTestId('bank-item-count').innerText()).toBe('12');

      // Evaluate with the default settings (BM25) …
      const evaluate = page.getByRole('button', { name: 'Evaluate with current settings' });
      await evaluate.click();
      const status = page.locator('[data-run-status]');
      await eventually(
        'the first run to complete',
        async () => (await status.getAttribute('data-run-status')) === 'completed',
        60_000,
      );
      expect(await page.locator('.metric-tiles').innerText()).toMatch(/hit@1\s+\d\.\d{3}/i);
      // The answer figures of the run: false refusals and false answers with intervals, AUC, support.
      const figures = page.getByTestId('answer-figures');
      await figures.waitFor();
      expect(await figures.locator('[data-figure="outOfScopeAnswered"]').innerText()).toMatch(
        /Out-of-scope answered\s+\d+\.\d%\s+\d+ of 1 · 95% CI/,
      );
      expect(await figures.locator('[data-figure="inScopeRefused"]').innerText()).toMatch(/ of 1\d · 95% CI/);
      expect(await figures.locator('[data-figure="auc"]').innerText()).toMatch(/AUC\s+(\d\.\d{3}|—)/);
      expect(await figures.locator('[data-figure="support"]').count()).toBe(1);
      expect(await figures.innerText()).toMatch(/Decided by \S+/);
      await screenshot(page, 'question-bank-evaluated.png');

      // … and again with the dense ranker, chosen in the settings drawer.
      await page.getByRole('button', { name: 'Change settings' }).click();
      const drawer = page.getByRole('dialog', { name: 'Retrieval settings' });
      await drawer.getByLabel('Dense', { exact: true }).check();
      await drawer.getByRole('button', { name: 'Close settings' }).click();
      expect(await page.locator('.settings-summary').innerText()).toMatch(/^dense · top 6 of 30/);
      await evaluate.click();
      await eventually(
        'the second run to start',
        async () => (await status.getAttribute('data-run-status')) !== 'completed',
      );
      await eventually(
        'the second run to complete',
        async () => (await status.getAttribute('data-run-status')) === 'completed',
        60_000,
      );

      // The evaluations page: the runs, the chart over time, and A vs B per item.
      await page.getByRole('link', { name: 'See this run on the evaluations page' }).click();
      await page.getByRole('heading', { level: 1, name: 'Evaluations' }).waitFor();
      const runs = page.getByRole('table', { name: 'Evaluation runs' });
      await eventually(
        'both runs in the table',
        async () => (await runs.locator('tbody tr[data-status="completed"]').count()) === 2,
      );
      const trend = page.getByTestId('metric-trend-chart');
      await trend.waitFor();
      await eventually(
        'the chart to cover both runs',
        async () => (await trend.locator('figcaption').innerText()).includes('of 2 completed runs'),
        30_000,
      );
      // The chart measures its box before drawing (ResizeObserver): give a loaded machine time.
      await eventually(
        'two points on the chart',
        async () => (await trend.locator('.recharts-line-dots circle, .recharts-dot').count()) === 2,
        30_000,
      );
      // The two runs were made within a minute or so: their axis labels still differ.
      const ticks = (await trend.locator('.recharts-cartesian-axis-tick-value').allTextContents()).filter(
        (text) => /^\d\d-\d\d \d\d:\d\d/.test(text),
      );
      expect(ticks).toHaveLength(2);
      expect(new Set(ticks).size).toBe(2);

      const rows = runs.locator('tbody tr');
      // Made within a minute or so, the two runs still have different labels (seconds, if need be).
      const runLinks = await runs.getByRole('link', { name: /^Open the run of / }).allInnerTexts();
      expect(runLinks).toHaveLength(2);
      expect(new Set(runLinks).size).toBe(2);
      for (const label of runLinks) expect(label).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?/);
      await rows.nth(1).getByRole('radio', { name: /as A$/ }).check();
      await rows.nth(0).getByRole('radio', { name: /as B$/ }).check();
      const comparison = page.getByRole('table', { name: 'Metrics of A and B' });
      await comparison.waitFor();
      expect(await comparison.innerText()).toMatch(/hit@1/i);
      const perItem = page.getByTestId('item-comparison-chart');
      await perItem.waitFor();
      await eventually(
        'a bar pair per in-scope item',
        async () => (await perItem.locator('.recharts-bar-rectangle').count()) >= 2,
      );
      expect(await page.getByRole('heading', { name: /^Only B hit/ }).count()).toBe(1);
      expect(await page.getByRole('heading', { name: /^Only A hit/ }).count()).toBe(1);
      const answerComparison = page.getByRole('table', { name: 'Answer figures of A and B' });
      expect(await answerComparison.locator('tbody tr[data-figure]').count()).toBe(4);
      expect(
        await answerComparison.locator('tr[data-figure="outOfScopeAnswered"] td').nth(3).innerText(),
      ).toMatch(/^([+−]\d+\.\d pt|±0\.0 pt)$/);
      await screenshot(page, 'evaluations.png');

      // A run's own page: its answer figures and, per question, what happened.
      await rows
        .nth(0)
        .getByRole('link', { name: /^Open the run of/ })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Evaluation run' }).waitFor();
      await page.getByTestId('answer-figures').waitFor();
      // The settings it ran with (the newest run: the dense ranker), and what its metrics mean.
      const ranWith = page.getByTestId('run-settings');
      expect((await ranWith.innerText()).replace(/\s+/g, ' ')).toMatch(
        /Ranker Dense \(embeddings\) Passages top 6 of 30 candidates per branch Query expansion off HyDE off Reranking off/,
      );
      const meanings = await page.getByTestId('metric-explanations').innerText();
      expect(meanings).toContain('Share of questions whose first result is an expected source.');
      expect(meanings).toMatch(/Mean reciprocal rank/);
      expect(meanings).toMatch(/Normalised discounted cumulative gain/);
      const perQuestion = page.getByRole('table', { name: 'Answers per question' });
      await perQuestion.waitFor();
      expect(await perQuestion.locator('tbody tr').count()).toBe(12);
      // Eleven in scope, one out of scope (the other was deleted above).
      const outOfScope = perQuestion.locator('tbody tr').filter({ hasText: 'out of scope' });
      expect(await outOfScope.count()).toBe(1);
      for (const row of await outOfScope.all()) {
        expect(await row.getAttribute('data-outcome')).toMatch(/^(refused|answered)$/);
        expect(await row.locator('td').nth(3).innerText()).toMatch(/^\d\.\d\d \/ \d\.\d\d$/);
      }
      const answered = perQuestion.locator('tbody tr[data-outcome="answered"]').first();
      await answered.getByText('Answer', { exact: true }).click();
      expect((await answered.locator('.item-answer .answer-text').innerText()).length).toBeGreaterThan(10);
      await screenshot(page, 'evaluation-run.png');

      // Back on the bank: its latest run's answer figures, then generation by the (scripted) LLM.
      await page.goto(bankUrl);
      await hydrated();
      const latest = page.getByRole('region', { name: /^Latest run/ });
      await latest.getByTestId('answer-figures').waitFor();
      const generate = page.getByRole('form', { name: 'Generate questions' });
      await generate.getByLabel('Staff Handbook').check();
      await generate.getByLabel('How many').fill('3');
      await generate.getByRole('button', { name: 'Generate' }).click();
      await eventually(
        'the generation to finish',
        async () => (await page.getByText(/Wrote 3 of 3 questions \(by the language model\)/).count()) === 1,
        60_000,
      );
      await eventually(
        'fifteen items',
        async () => (await page.getByTestId('bank-item-count').innerText()) === '15',
      );
    });

    it('filters the bank list by template and by words', async () => {
      const tag = `${stamp}f`;
      const template = await apiJson<QuestionTemplate>('POST', '/question-templates', {
        name: `Filter template ${tag}`,
        kind: 'scenario',
        promptTemplate: 'Ask about {{passage}}',
      });
      await apiJson('POST', '/question-banks', { name: `Filtered bank ${tag}`, templateId: template.id });
      await apiJson('POST', '/question-banks', { name: `Loose bank ${tag}` });

      await page.goto(`${WEB_URL}/question-banks`);
      await hydrated();
      const table = page.getByRole('table', { name: 'Question banks' });
      await page.getByLabel('Search', { exact: true }).fill(tag);
      await eventually('both banks', async () => (await table.locator('tbody tr').count()) === 2);
      await page
        .getByLabel('Template', { exact: true })
        .last()
        .selectOption({ label: `Filter template ${tag}` });
      await eventually('only the bank of that template', async () => {
        const text = await table.innerText();
        return (await table.locator('tbody tr').count()) === 1 && text.includes(`Filtered bank ${tag}`);
      });
      // The words and the template are in the address: a reload keeps the filtered list.
      const params = new URL(page.url()).searchParams;
      expect([params.get('q'), params.get('template')]).toEqual([tag, template.id]);
      await page.reload();
      await hydrated();
      expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe(tag);
      await eventually('the same filtered list after the reload', async () => {
        const text = await table.innerText();
        return (await table.locator('tbody tr').count()) === 1 && text.includes(`Filtered bank ${tag}`);
      });
      await page.getByLabel('Search', { exact: true }).fill(`${tag}-nothing`);
      await eventually('no bank', async () => (await page.getByText('No bank matches.').count()) === 1);
      await screenshot(page, 'question-banks.png');
    });

    it('edits a template and deletes it; its bank stays, without a template', async () => {
      const tag = `${stamp}t`;
      const template = await apiJson<QuestionTemplate>('POST', '/question-templates', {
        name: `Editable template ${tag}`,
        kind: 'definition',
        promptTemplate: 'Ask about {{passage}}',
      });
      await apiJson('POST', '/question-banks', { name: `Templated bank ${tag}`, templateId: template.id });

      await page.goto(`${WEB_URL}/question-banks?q=${tag}`);
      await hydrated();
      const table = page.getByRole('table', { name: 'Question banks' });
      await eventually('the bank with its template', async () =>
        (await table.innerText()).includes(`Editable template ${tag}`),
      );
      await page.getByText('Question templates').click();
      const templates = page.getByRole('list', { name: 'Templates' });
      await templates.getByRole('button', { name: `Edit template "Editable template ${tag}"` }).click();
      const form = page.getByRole('form', { name: `Edit template "Editable template ${tag}"` });
      await form.getByLabel('Name').fill(`Renamed template ${tag}`);
      await form.getByLabel('Kind').selectOption('scenario');
      await form.getByLabel('Summary (optional)').fill('Scenarios from the handbook');
      // A prompt of spaces is refused before it is sent, with a sentence that says what is missing.
      await form.getByLabel('Prompt').fill('   ');
      await form.getByRole('button', { name: 'Save template' }).click();
      expect(await form.getByRole('alert').innerText()).toContain('Write the prompt the generator uses.');
      await form.getByLabel('Prompt').fill('Describe a situation where {{passage}} applies.');
      await form.getByRole('button', { name: 'Save template' }).click();
      await eventually('the renamed template', async () =>
        (await templates.innerText()).includes(`Renamed template ${tag}`),
      );
      expect(await templates.innerText()).toContain('Scenarios from the handbook');
      await eventually('the bank list with the new name', async () =>
        (await table.innerText()).includes(`Renamed template ${tag}`),
      );
      const saved = await apiJson<QuestionTemplate>('GET', `/question-templates/${template.id}`);
      expect(saved).toMatchObject({
        kind: 'scenario',
        promptTemplate: 'Describe a situation where {{passage}} applies.',
      });
      await screenshot(page, 'question-template-edited.png');

      await templates.getByRole('button', { name: `Delete template "Renamed template ${tag}"` }).click();
      await templates
        .getByRole('group', { name: /^Delete this template\?/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await eventually(
        'the template gone',
        async () => !(await templates.innerText()).includes(`Renamed template ${tag}`),
      );
      await eventually('the bank still listed, without a template', async () => {
        const row = table.locator('tbody tr', { hasText: `Templated bank ${tag}` });
        return (await row.count()) === 1 && !(await row.innerText()).includes('Renamed template');
      });
    });

    it('asks to sign in when the server wants a key, checks the key, and then sends it as a header', async () => {
      // This test server runs in local mode (loopback needs no key), so the test makes a real admin key
      // and plays a server with ADMIN_API_KEY by answering keyless bank creations with 401.
      const { key } = await apiJson<CreatedApiKey>('POST', '/auth/keys', {
        name: `Browser admin ${stamp}`,
        role: 'admin',
      });
      const seen: (string | undefined)[] = [];
      await page.route('**/question-banks', async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const sent = route.request().headers()['x-api-key'];
        seen.push(sent);
        if (sent === key) return route.continue();
        await route.fulfill({
          status: 401,
          contentType: 'application/json',
          headers: { 'Access-Control-Allow-Origin': '*' },
          body: JSON.stringify({
            statusCode: 401,
            message: 'An API key is required.',
            error: 'Unauthorized',
          }),
        });
      });
      await page.goto(`${WEB_URL}/question-banks`);
      await hydrated();
      await page.getByLabel('Name', { exact: true }).first().fill(`Keyed bank ${stamp}`);
      await page.getByRole('button', { name: 'Create bank' }).click();
      const alert = page.getByRole('region', { name: 'New question bank' }).getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain('The server needs an API key to create the question bank.');

      // A wrong key is refused by the server's GET /auth/me and not kept.
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in with an API key' });
      await dialog.getByLabel('API key', { exact: true }).fill('lum_not-a-key-of-this-server');
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dialog.getByRole('alert').waitFor();
      expect(await dialog.getByRole('alert').innerText()).toMatch(/does not know this key/);

      await dialog.getByLabel('API key', { exact: true }).fill(key);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: `Signed in as Browser admin ${stamp} (admin)` }).waitFor();
      await page.getByRole('button', { name: 'Create bank' }).click();
      await page.getByRole('heading', { level: 1, name: `Keyed bank ${stamp}` }).waitFor();
      expect(seen).toEqual([undefined, key]);
      expect(page.url()).not.toContain(key);
      await screenshot(page, 'signed-in.png');

      await page.getByRole('button', { name: /^Signed in as/ }).click();
      await dialog.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    });
  },
);
