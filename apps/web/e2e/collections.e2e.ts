/**
 * Collections in a real browser against the real server: two collections made on the collections page,
 * a document uploaded into each from the documents page, a chat that searches one of them and cites only
 * its document, then both; and a user key granted one collection, which sees only that one.
 */
import type { Collection, CreatedApiKey, DocumentView, Page as ApiPage } from '@lumina/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson, emptyLibrary } from './support/api';
import {
  describeWhenServerHas,
  eventually,
  launchBrowser,
  openPage,
  screenshot,
  WEB_URL,
} from './support/browser';
import { ChatPage } from './pages/chat.page';
import { DocumentsPage } from './pages/documents.page';

const OPS_RUNBOOK = [
  '# Ops Runbook',
  '',
  '## Failover',
  '',
  'Promote the standby replica with pg_ctl promote, then repoint the writers at the new primary.',
  'The on-call engineer confirms the replication lag before the promotion.',
].join('\n');

const SUPPORT_HANDBOOK = [
  '# Support Handbook',
  '',
  '## Refunds',
  '',
  'A customer may ask for a refund within thirty days of the purchase.',
  'The support engineer confirms the invoice number before the refund.',
].join('\n');

const QUESTION = 'Who confirms the invoice number before the refund?';

describeWhenServerHas(
  ['listCollections', 'createCollection', 'deleteCollection', 'uploadDocuments', 'chat'],
  'collections',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];
    const stamp = Date.now().toString(36);
    const ops = `Ops ${stamp}`;
    const support = `Support ${stamp}`;

    beforeAll(async () => {
      await emptyLibrary();
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      // The suites after this one expect the one library they started with (a fitted reranker, for one,
      // serves a search of every collection only while there is one collection).
      for (const name of [ops, support]) {
        const listed = await apiJson<ApiPage<Collection>>(
          'GET',
          `/collections?search=${encodeURIComponent(name)}`,
        );
        for (const collection of listed.items.filter((item) => item.name === name && !item.deleting))
          await apiJson('DELETE', `/collections/${collection.id}`);
      }
      await eventually(
        'the suite’s collections gone',
        async () =>
          (await apiJson<ApiPage<Collection>>('GET', `/collections?search=${encodeURIComponent(stamp)}`))
            .total === 0,
        60_000,
      );
    });

    beforeEach(async () => {
      ({ context, page, pageErrors } = await openPage(browser));
    });

    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    const collectionNamed = async (name: string): Promise<Collection> => {
      const page = await apiJson<ApiPage<Collection>>(
        'GET',
        `/collections?search=${encodeURIComponent(name)}`,
      );
      const found = page.items.find((collection) => collection.name === name);
      if (!found) throw new Error(`no collection named ${name}`);
      return found;
    };

    /** The citation labels of the last answer ("Source 1: Ops Runbook › Failover", …). */
    const citedSources = async (chat: ChatPage): Promise<string[]> =>
      chat
        .lastAnswer()
        .locator('button.cite')
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));

    it('makes two collections, uploads into each, and chats in one, then in both', async () => {
      // Two collections, made on the collections page.
      await page.goto(`${WEB_URL}/collections`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1, name: 'Collections' }).waitFor();
      const form = page.getByRole('region', { name: 'New collection' });
      for (const name of [ops, support]) {
        await eventually('the form to take input', async () => {
          await form.getByLabel('Name', { exact: true }).fill(name);
          return (await form.getByRole('button', { name: 'Create collection' }).isEnabled()) === true;
        });
        await form.getByRole('button', { name: 'Create collection' }).click();
        await page.getByRole('link', { name, exact: true }).waitFor();
      }
      await screenshot(page, 'collections.png');
      const [opsCollection, supportCollection] = [await collectionNamed(ops), await collectionNamed(support)];

      // One document into each, through the documents page's collection select.
      const documents = new DocumentsPage(page);
      await documents.goto();
      for (const [collection, name, content] of [
        [opsCollection, 'ops-runbook.md', OPS_RUNBOOK],
        [supportCollection, 'support-handbook.md', SUPPORT_HANDBOOK],
      ] as const) {
        await page.getByLabel('Add to collection').selectOption(collection.id);
        await documents.drop([{ name, content }]);
        await eventually(
          `${name} indexed in ${collection.name}`,
          async () => {
            const listed = await apiJson<ApiPage<DocumentView>>(
              'GET',
              `/documents?collectionId=${collection.id}`,
            );
            return listed.items.some((document) => document.status === 'indexed');
          },
          60_000,
        );
      }

      // Chat in Ops only: the support handbook is not searched, so it is never cited.
      const chat = new ChatPage(page);
      await chat.goto();
      const switcher = page.getByTestId('collection-switcher');
      await switcher.locator('summary').click();
      await switcher.getByLabel(new RegExp(`^${ops}`)).check();
      await eventually('the pick to read Ops', async () =>
        (await switcher.locator('summary').innerText()).includes(ops),
      );
      await page.keyboard.press('Escape');
      await chat.ask(QUESTION);
      expect(await chat.waitForAnswer()).toBe('done');
      const inOps = await citedSources(chat);
      expect(inOps.every((label) => label.includes('Ops Runbook'))).toBe(true);
      expect((await chat.lastAnswer().innerText()).includes('invoice number')).toBe(false);
      await screenshot(page, 'collections-chat-one.png');

      // Both collections: the support handbook answers, and its citation says so.
      await switcher.locator('summary').click();
      await switcher.getByLabel(new RegExp(`^${support}`)).check();
      await page.keyboard.press('Escape');
      await chat.ask(QUESTION);
      expect(await chat.waitForAnswer()).toBe('done');
      const inBoth = await citedSources(chat);
      expect(inBoth.some((label) => label.includes('Support Handbook'))).toBe(true);
      expect(await chat.lastAnswer().innerText()).toMatch(
        /the support engineer confirms the invoice number/i,
      );
      await screenshot(page, 'collections-chat-both.png');
    });

    it('a user key granted one collection sees only that one', async () => {
      const granted = await collectionNamed(ops);
      const { key } = await apiJson<CreatedApiKey>('POST', '/auth/keys', {
        name: `Ops reader ${stamp}`,
        role: 'user',
        grants: [{ collectionId: granted.id, access: 'read' }],
      });
      const chat = new ChatPage(page);
      await chat.goto();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in with an API key' });
      await dialog.getByLabel('API key', { exact: true }).fill(key);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: `Signed in as Ops reader ${stamp} (user)` }).waitFor();

      const switcher = page.getByTestId('collection-switcher');
      await switcher.locator('summary').click();
      await eventually('the switcher to list the granted collection only', async () => {
        const labels = await switcher.locator('fieldset li label').allInnerTexts();
        return labels.length === 2 && labels[0] === 'All collections' && labels[1].startsWith(ops);
      });
      await page.keyboard.press('Escape');
      await chat.ask(QUESTION);
      expect(await chat.waitForAnswer()).toBe('done');
      expect((await citedSources(chat)).every((label) => label.includes('Ops Runbook'))).toBe(true);
      await screenshot(page, 'collections-user-key.png');
    });

    it("a write grant manages its collection's question banks: the other collection's are not listed", async () => {
      const [granted, other] = [await collectionNamed(ops), await collectionNamed(support)];
      await apiJson('POST', '/question-banks', { name: `Ops bank ${stamp}`, collectionId: granted.id });
      await apiJson('POST', '/question-banks', { name: `Support bank ${stamp}`, collectionId: other.id });
      const { key } = await apiJson<CreatedApiKey>('POST', '/auth/keys', {
        name: `Ops writer ${stamp}`,
        role: 'user',
        grants: [{ collectionId: granted.id, access: 'write' }],
      });
      const chat = new ChatPage(page);
      await chat.goto();
      // The key lives in the page's memory: after the navigation above, sign in afresh.
      await page.getByRole('button', { name: /^(Sign in|Signed in as .*)$/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in with an API key' });
      await dialog.getByLabel('API key', { exact: true }).fill(key);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: `Signed in as Ops writer ${stamp} (user)` }).waitFor();

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Question banks' })
        .click();
      const table = page.getByRole('table', { name: 'Question banks' });
      await eventually('the ops bank alone', async () => {
        const text = await table.innerText().catch(() => '');
        return text.includes(`Ops bank ${stamp}`) && !text.includes(`Support bank ${stamp}`);
      });
      await screenshot(page, 'collections-writer-banks.png');
    });

    it('the Keys page makes a key and shows how to use it from OpenAI clients and MCP, which works', async () => {
      const granted = await collectionNamed(ops);
      // A navigation drops the key signed in with: this is the local admin again.
      await page.goto(`${WEB_URL}/keys`, { waitUntil: 'load' });
      const form = page.getByRole('region', { name: 'New key' });
      await eventually('the form to take input', async () => {
        await form.getByLabel('Name', { exact: true }).fill(`Open WebUI ${stamp}`);
        await form.getByRole('radiogroup', { name: granted.name }).getByLabel('Read').check();
        return (await form.getByRole('button', { name: 'Create key' }).isEnabled()) === true;
      });
      await form.getByRole('button', { name: 'Create key' }).click();
      const created = page.getByTestId('created-key');
      await created.waitFor();
      const key = await created.getByLabel('The new API key').inputValue();
      await created.getByText('Use this key from other tools').click();
      const snippets = page.getByTestId('connect-snippets');
      const text = await snippets.innerText();
      expect(text).toContain(`"Authorization": "Bearer ${key}"`);
      expect(text).toContain('"LUMINA_API_KEY"');
      const base = await snippets.getByTestId('openai-base-url').innerText();
      expect(base).toMatch(/\/v1$/);
      await screenshot(page, 'keys-connect-snippets.png');
      // The base URL and key shown are what an OpenAI client needs: the key's models, its collection's among them.
      const models = await fetch(`${base}/models`, { headers: { authorization: `Bearer ${key}` } });
      expect(models.status).toBe(200);
      const listed = ((await models.json()) as { data: { id: string }[] }).data.map((model) => model.id);
      expect(listed).toEqual(['lumina', `lumina:${granted.slug}`]);
    });

    it('deletes a collection with its documents from the collections page', async () => {
      await page.goto(`${WEB_URL}/collections`, { waitUntil: 'load' });
      await page.getByRole('link', { name: support, exact: true }).waitFor();
      await page.getByRole('button', { name: `Delete ${support}` }).click();
      await page
        .getByRole('group', { name: /^Delete "Support / })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
      await eventually(
        'the collection gone',
        async () => (await page.getByRole('link', { name: support, exact: true }).count()) === 0,
        20_000,
      );
      // The page drops it at once; the server lists it as `deleting` until its documents are gone (a
      // background job, slower on a busy machine), then not at all.
      await eventually(
        'the collection deleted on the server',
        async () =>
          (await apiJson<ApiPage<Collection>>('GET', `/collections?search=${encodeURIComponent(support)}`))
            .items.length === 0,
        50_000,
      );
    });
  },
);
