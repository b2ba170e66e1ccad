/**
 * A Git source in a real browser against the real server: a repository made on disk, added on the
 * Sources page, synced, changed (a file edited, one removed, one added), synced again, and both reports
 * read on the page; the documents it brought in answer a search.
 */
import type { Page as ApiPage, Source } from '@lumina/shared';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  stack,
  WEB_URL,
} from './support/browser';
import { sourceRoot } from './support/stack';

function git(repo: string, ...args: string[]): string {
  return execFileSync(
    'git',
    [
      '-c',
      'user.name=Lumina e2e',
      '-c',
      'user.email=e2e@lumina.test',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd: repo, encoding: 'utf8' },
  );
}

describeWhenServerHas(['listSources', 'createSource', 'syncSource', 'listSourceRuns'], 'sources', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const name = `Handbook ${Date.now().toString(36)}`;
  const repo = path.join(sourceRoot(stack.dataDir), `handbook-${Date.now().toString(36)}`);

  beforeAll(async () => {
    mkdirSync(path.join(repo, 'docs'), { recursive: true });
    git(repo, 'init', '-q');
    writeFileSync(
      path.join(repo, 'docs/vacation.md'),
      '# Vacation\n\nEvery employee gets twenty-five days of paid vacation a year.\n',
    );
    writeFileSync(
      path.join(repo, 'docs/expenses.md'),
      '# Expenses\n\nSubmit receipts within thirty days of the purchase.\n',
    );
    writeFileSync(
      path.join(repo, 'docs/laptops.md'),
      '# Laptops\n\nLaptops are replaced every three years.\n',
    );
    writeFileSync(path.join(repo, 'notes.txt'), 'Not included by the glob.\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'First handbook');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    const listed = await apiJson<ApiPage<Source>>('GET', '/sources?limit=100');
    for (const source of listed.items.filter((item) => item.name === name))
      await apiJson('DELETE', `/sources/${source.id}`);
    rmSync(repo, { recursive: true, force: true });
  });

  beforeEach(async () => {
    ({ context, page, pageErrors } = await openPage(browser));
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  it('adds a Git source, syncs it, syncs the changed repository and shows both reports', async () => {
    await page.goto(`${WEB_URL}/sources`, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();
    const form = page.getByRole('form', { name: 'Add a source' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Kind', { exact: true }).selectOption('git');
    await form.getByLabel('Repository URL or server path').fill(repo);
    await form.getByLabel('Include (one glob a line)').fill('docs/**/*.md');
    await form.getByRole('button', { name: 'Add source' }).click();

    const card = page.getByRole('listitem', { name: `Source ${name}` });
    await card.waitFor();
    await card.getByRole('button', { name: 'Sync now' }).click();
    const report = card.getByTestId('sync-report');
    await eventually(
      'the first sync to finish',
      async () =>
        (await report.count()) === 1 && (await report.getAttribute('data-run-status')) === 'succeeded',
      120_000,
    );
    expect(await report.innerText()).toContain('3 added, 0 updated, 0 unchanged, 0 deleted, 0 failed');
    expect(await card.innerText()).toContain('3 files');
    await screenshot(page, 'sources-first-sync.png');

    // The repository changes: one file edited, one removed, one added.
    writeFileSync(
      path.join(repo, 'docs/vacation.md'),
      '# Vacation\n\nEvery employee gets thirty days of paid vacation a year.\n',
    );
    rmSync(path.join(repo, 'docs/laptops.md'));
    writeFileSync(
      path.join(repo, 'docs/parking.md'),
      '# Parking\n\nThe garage opens at six in the morning.\n',
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'Longer vacation, parking, no laptops');
    const head = git(repo, 'rev-parse', 'HEAD').trim();

    await card.getByRole('button', { name: 'Sync now' }).click();
    await eventually(
      'the second sync to finish',
      async () =>
        (await report.getAttribute('data-run-status')) === 'succeeded' &&
        (await report.innerText()).includes(head.slice(0, 10)),
      120_000,
    );
    expect(await report.innerText()).toMatch(/1 added, 1 updated, \d+ unchanged, 1 deleted, 0 failed/);
    await card.getByRole('button', { name: 'Sync history' }).click();
    const history = card.getByRole('region', { name: `Sync history of ${name}` });
    await eventually(
      'both reports in the history',
      async () => (await history.getByTestId('sync-report').count()) === 2,
    );
    await screenshot(page, 'sources-second-sync.png');

    // The edited file answers with its new text.
    const searched = await apiJson<{
      results: { documentId: string; documentTitle: string; text: string }[];
    }>('POST', '/rag/search', {
      query: 'How many days of paid vacation?',
      settings: { ranker: 'bm25', topK: 1 },
    });
    expect(searched.results[0].text).toContain('thirty days of paid vacation');

    // Its document says where it came from: the path in the repository at the synced commit.
    await page.goto(`${WEB_URL}/documents/${searched.results[0].documentId}`, { waitUntil: 'load' });
    const origin = page.getByTestId('document-origin');
    await origin.waitFor();
    expect(await origin.innerText()).toContain(`docs/vacation.md at commit ${head.slice(0, 10)}`);
  }, 300_000);
});
