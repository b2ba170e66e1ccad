/**
 * Documents in a real browser against the real server: drag-and-drop upload of several files with
 * live progress (SSE) until indexed, a failure with its reason, the paginated and searchable list,
 * a document's passages with heading paths, and delete.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptedDocument, ChunkView, DocumentDetail, Page as ApiPage } from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson, emptyLibrary } from './support/api';
import {
  API_URL,
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { DocumentsPage } from './pages/documents.page';

const FIXTURES = path.join(__dirname, 'fixtures');
const STATUS_ORDER = ['queued', 'parsing', 'chunking', 'embedding', 'indexed'];

/** A guide whose bytes are new on every run, so its ingestion really happens while the test watches. */
function officeGuide(stamp: string): string {
  const sections = ['Opening hours', 'Kitchen', 'Meeting rooms', 'Printers', 'Bicycle parking', 'Visitors'];
  return [
    `# Office Guide`,
    '',
    `Edition ${stamp}.`,
    ...sections.flatMap((section, index) => [
      '',
      `## ${section}`,
      '',
      `The ${section.toLowerCase()} rules of the office, part ${index + 1}. ` +
        `Everyone keeps the ${section.toLowerCase()} tidy and reports problems to the facilities team.`,
    ]),
  ].join('\n');
}

describeWhenServerHas(
  ['uploadDocuments', 'listDocuments', 'documentEvents', 'getDocument', 'listChunks', 'deleteDocument'],
  'documents',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];
    let documents: DocumentsPage;
    const stamp = `${Date.now().toString(36)}`;

    beforeAll(async () => {
      await emptyLibrary();
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
    });

    beforeEach(async () => {
      ({ context, page, pageErrors } = await openPage(browser));
      documents = new DocumentsPage(page);
    });

    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    it('uploads dropped files and follows each one live until it is indexed, or says why it failed', async () => {
      await documents.goto();
      await documents.recordStates('office-guide.md');
      await documents.drop([
        { name: 'office-guide.md', content: officeGuide(stamp) },
        {
          name: 'security-policy.md',
          content: readFileSync(path.join(FIXTURES, 'security-policy.md'), 'utf8'),
        },
        { name: 'blank.md', content: readFileSync(path.join(FIXTURES, 'blank.md'), 'utf8') },
      ]);
      await documents.upload('office-guide.md').waitFor();
      await screenshot(page, 'documents-uploading.png');

      const guide = documents.upload('office-guide.md').locator('.document-status');
      await eventually(
        'the office guide to be indexed',
        async () => (await guide.getAttribute('data-status')) === 'indexed',
        60_000,
      );
      await eventually(
        'the security policy to be indexed',
        async () =>
          (await documents
            .upload('security-policy.md')
            .locator('.document-status')
            .getAttribute('data-status')) === 'indexed',
        60_000,
      );

      // The progress went forward through the status machine and ended at indexed.
      const states = await documents.recordedStates('office-guide.md');
      const statuses = states.map((state) => state.split('|')[0]);
      expect(statuses.at(-1)).toBe('indexed');
      expect(statuses.length).toBeGreaterThan(1);
      const ranks = statuses.map((status) => STATUS_ORDER.indexOf(status));
      expect(ranks.every((rank) => rank >= 0)).toBe(true);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
      expect(
        states.some((state) => /Waiting in the queue|Reading|Splitting|Embedding passages/.test(state)),
      ).toBe(true);

      // The empty file is refused with the server's reason, as a sentence.
      const blank = documents.upload('blank.md');
      await blank.getByRole('alert').waitFor();
      expect(await blank.getByRole('alert').innerText()).toMatch(/empty|no text|words/i);

      // The library lists the new documents with their passages counted.
      const row = documents.row('Office Guide');
      await row.waitFor();
      expect(await row.innerText()).toContain('Indexed');
      await screenshot(page, 'documents-indexed.png');
    });

    it('searches the list, opens a document and pages through its passages with their heading paths', async () => {
      const sections = Array.from(
        { length: 24 },
        (_, index) =>
          `## Term ${index + 1}\n\nDefinition number ${index + 1} of the glossary, written in full sentences so it is a passage of its own.`,
      );
      const created = await apiJson<AcceptedDocument>('POST', '/documents/text', {
        title: `Glossary ${stamp}`,
        text: `# Glossary\n\n${sections.join('\n\n')}`,
        format: 'markdown',
      });
      await eventually(
        'the glossary to be indexed',
        async () => (await apiJson<DocumentDetail>('GET', `/documents/${created.id}`)).status === 'indexed',
        60_000,
      );

      await documents.goto();
      await documents.search.fill(`Glossary ${stamp}`);
      await eventually('the search to narrow the list', async () => {
        const rows = await documents.library.locator('tbody tr').count();
        return rows === 1 && (await documents.library.innerText()).includes(`Glossary ${stamp}`);
      });
      await page.getByRole('link', { name: `Glossary ${stamp}` }).click();
      await page.getByRole('heading', { level: 1, name: `Glossary ${stamp}` }).waitFor();

      const passages = page.getByRole('list', { name: 'Passages' });
      await passages.waitFor();
      expect(await passages.locator(':scope > li').count()).toBe(20);
      expect(await passages.innerText()).toContain('Glossary › Term 1');
      const pager = page.getByRole('navigation', { name: 'Passages pages' });
      expect(await pager.innerText()).toContain('Page 1 of 2 · 24 in all');
      await pager.getByRole('button', { name: 'Next' }).click();
      await eventually('the second page of passages', async () =>
        (await pager.innerText()).includes('Page 2 of 2'),
      );
      await eventually('the last passages', async () =>
        (await passages.innerText()).includes('Glossary › Term 24'),
      );
      expect(await passages.locator(':scope > li').count()).toBe(4);
      await screenshot(page, 'document-passages.png');
      expect(page.url()).toBe(`${WEB_URL}/documents/${created.id}?page=2`);
      await page.reload();
      await eventually('page 2 after a reload', async () =>
        (await pager.innerText()).includes('Page 2 of 2'),
      );

      // A link to one passage (as a citation makes) opens the page that holds it, scrolled to and marked.
      const all = await apiJson<ApiPage<ChunkView>>('GET', `/documents/${created.id}/chunks?limit=100`);
      const term23 = all.items.find((chunk) => chunk.headingPath.at(-1) === 'Term 23');
      expect(term23).toBeDefined();
      await page.goto(`${WEB_URL}/documents/${created.id}?chunk=${term23!.id}`);
      const marked = passages.locator('li[aria-current="true"]');
      await eventually('the cited passage marked on page 2', async () =>
        (await marked.count()) === 1 ? (await marked.innerText()).includes('Glossary › Term 23') : false,
      );
      expect(await pager.innerText()).toContain('Page 2 of 2');
      await eventually('the marked passage scrolled into view', async () => {
        const box = await marked.boundingBox();
        const viewport = page.viewportSize()!;
        return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
      });
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      await screenshot(page, 'document-passage-marked.png', false);
      await page.reload();
      await eventually('the mark after a reload', async () => (await marked.count()) === 1);
      await pager.getByRole('button', { name: 'Previous' }).click();
      await eventually('page 1 without a mark', async () =>
        (await pager.innerText()).includes('Page 1 of 2'),
      );
      expect(await marked.count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('chunk')).toBeNull();

      // A passage of another document is refused by the server: the page says so and shows page 1.
      await page.goto(`${WEB_URL}/documents/${created.id}?chunk=00000000-0000-4000-8000-000000000000`);
      await page.getByText('The cited passage is no longer part of this document').waitFor();
      await eventually('the first page instead', async () =>
        (await pager.innerText()).includes('Page 1 of 2'),
      );
    });

    it('shows the uploads in progress instead of "No documents yet" while an empty library receives files', async () => {
      // An empty library (the shared test server has documents, so its list is answered empty here),
      // and an upload held back until the test lets it through.
      let listed = false;
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const api = new URL(API_URL);
      await page.route(
        (url) => url.origin === api.origin && url.pathname === '/documents',
        async (route) => {
          const method = route.request().method();
          if (method === 'GET' && !listed) {
            await route.fulfill({
              status: 200,
              contentType: 'application/json',
              headers: { 'Access-Control-Allow-Origin': '*' },
              body: JSON.stringify({ items: [], page: 1, limit: 20, total: 0, totalPages: 0 }),
            });
            return;
          }
          if (method === 'POST') await held;
          await route.continue();
        },
      );
      await documents.goto();
      await page.getByText('No documents yet.').waitFor();
      await documents.drop([{ name: `pending-${stamp}.md`, content: `# Pending ${stamp}\n\nHeld back.` }]);
      const pending = page.getByTestId('uploads-in-progress');
      await pending.waitFor();
      expect(await pending.innerText()).toContain(`Uploading 1 file: pending-${stamp}.md.`);
      expect(await page.getByText('No documents yet.').count()).toBe(0);
      await screenshot(page, 'documents-empty-uploading.png');
      listed = true;
      release();
      await eventually('the upload in the library', async () =>
        (await documents.library.innerText().catch(() => '')).includes(`Pending ${stamp}`),
      );
    });

    it('deletes a document after asking once', async () => {
      const created = await apiJson<AcceptedDocument>('POST', '/documents/text', {
        title: `Scratch ${stamp}`,
        text: 'A scratch note that is deleted again.',
      });
      await documents.goto();
      await documents.search.fill(`Scratch ${stamp}`);
      const row = documents.row(`Scratch ${stamp}`);
      await row.waitFor();
      await row.getByRole('button', { name: `Delete Scratch ${stamp}` }).click();
      await row.getByRole('button', { name: 'Delete', exact: true }).click();
      await eventually('the row to go', async () => (await row.count()) === 0);
      await expect(apiJson('GET', `/documents/${created.id}`)).rejects.toThrow(/404/);
    });
  },
);
