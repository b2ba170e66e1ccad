/**
 * The newcomer's session, replayed in a real browser, offline: ten real Markdown documents (READMEs and
 * guides of the docs gold set) on an API server of this suite's own (its own embedded database and queue
 * prefix, so no other suite's documents count and the order of suites does not matter), then one
 * conversation: four questions whose first quote comes from a passage the search ranked second or lower
 * (checked on the stored trace, so the test cannot pass on passage 1), a switch to another library's
 * question and a follow-up that points back ("can it …"). Every citation marker of every answer opens
 * the passage that holds the text the marker closes, and that text is marked in the dialog.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type {
  Citation,
  ChunkView,
  ConversationDetail,
  ConversationMessage,
  Conversation,
  Page as ListPage,
  RetrievalTrace,
} from '@lumina/shared';
import { seedDocument } from './support/api';
import {
  routeApiTo,
  WEB_URL,
  describeWhenServerHas,
  launchBrowser,
  openPage,
  screenshot,
} from './support/browser';
import { startApi, stopProcesses, waitForApi, WORKSPACE_ROOT, type ApiProcess } from './support/stack';
import { ChatPage } from './pages/chat.page';

const CORPUS = path.join(WORKSPACE_ROOT, 'datasets', 'docs-gold', 'corpus');
const DOCUMENTS = [
  'pino/api.md',
  'pino/transports.md',
  'pino/browser.md',
  'pino/redaction.md',
  'pino/child-loggers.md',
  'helmet/README.md',
  'class-validator/README.md',
  'prom-client/README.md',
  'pino-http/README.md',
  'yaml/README.md',
];

/** Questions whose first quoted sentence is not from the top-ranked passage, with the document it is from. */
const DEEP_QUOTES = [
  { question: "how to add my own custom log level like 'audit'", title: 'API', words: 'customLevels' },
  // The list item holding the answer wraps onto a second line: quoted whole, not cut at the line break.
  {
    question: 'can I write a pino transport in TypeScript?',
    title: 'Transports',
    words: 'problematic on Windows systems',
  },
  {
    question: 'is Cross-Origin-Embedder-Policy on by default in helmet?',
    title: 'Helmet',
    words: 'Cross-Origin-Embedder-Policy',
  },
  { question: 'Does class-validator support async validation?', title: 'class-validator', words: 'async' },
];
const SWITCH = { question: 'what is a counter in prom-client?', title: 'Prometheus client for node.js' };
const FOLLOW_UP = { question: 'can it go down?', words: 'Counters go up' };

/** Lower-cased words, Markdown punctuation and link targets aside. */
function words(text: string): string[] {
  return (text
    .replace(/\]\([^)\s]*\)/g, ']')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) as string[];
}

function holdsRun(haystack: string[], run: string[]): boolean {
  const joined = ` ${haystack.join(' ')} `;
  return run.length > 0 && joined.includes(` ${run.join(' ')} `);
}

/**
 * Each marker of a stored answer with the text it closes: the paragraph's text since the previous
 * marker ("[1][2]" close the same text); fenced code is not read.
 */
function markerQuotes(answer: string): { marker: number; quote: string }[] {
  const quotes: { marker: number; quote: string }[] = [];
  const prose = answer.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const paragraph of prose.split(/\n\s*\n/)) {
    let last = 0;
    let previous = '';
    for (const match of paragraph.matchAll(/\[(\d{1,2})\]/g)) {
      const quote = paragraph.slice(last, match.index).trim() || previous;
      previous = quote;
      last = match.index + match[0].length;
      quotes.push({ marker: Number(match[1]), quote });
    }
  }
  return quotes;
}

/** True when the passage holds each sentence (or line, or piece cut with "…") of the quote, word for word. */
function passageHoldsQuote(passage: string, quote: string): boolean {
  const pieces = quote
    .split(/\n|…|(?<=[.!?])\s+/)
    .map(words)
    .filter((piece) => piece.length > 0);
  return pieces.length > 0 && pieces.every((piece) => holdsRun(words(passage), piece));
}

describeWhenServerHas(['chat', 'uploadDocuments'], 'newcomer replay', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let chat: ChatPage;
  let offline: ApiProcess | null = null;

  async function offlineJson<T>(route: string): Promise<T> {
    const response = await fetch(`${(offline as ApiProcess).url}${route}`);
    if (!response.ok) throw new Error(`GET ${route} → ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    offline = await startApi({
      llmUrl: null,
      webUrl: WEB_URL,
      log: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-api-newcomer.log'),
    });
    await waitForApi(offline);
    for (const document of DOCUMENTS) {
      await seedDocument(path.join(CORPUS, document), document.replace('/', '-'), offline.url);
    }
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    if (offline?.child.pid) stopProcesses([offline.child.pid]);
  });

  beforeEach(async () => {
    ({ context, page, pageErrors } = await openPage(browser));
    chat = new ChatPage(page);
    const target = (offline as ApiProcess).url;
    // The web app talks to this suite's offline server: every API request of the page is sent there.
    await routeApiTo(context, target);
    await chat.goto();
  });

  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });

  /** The stored answer to `question` in the (only) conversation, and its retrieval trace. */
  async function storedAnswer(
    question: string,
  ): Promise<{ message: ConversationMessage; trace: RetrievalTrace }> {
    const conversations = await offlineJson<ListPage<Conversation>>('/conversations');
    expect(conversations.items).toHaveLength(1);
    const detail = await offlineJson<ConversationDetail>(
      `/conversations/${conversations.items[0].id}?limit=100`,
    );
    const asked = detail.messages.items.filter((m) => m.role === 'user' && m.content === question);
    expect(asked).toHaveLength(1);
    const message = detail.messages.items.find((m) => m.replyToId === asked[0].id);
    if (!message) throw new Error(`no stored answer to "${question}"`);
    const trace = await offlineJson<RetrievalTrace>(`/messages/${message.id}/trace`);
    return { message, trace };
  }

  /** Where the search ranked the passage a citation opens (1 = top). */
  function rankOf(citation: Citation, trace: RetrievalTrace): number {
    return trace.retrieved.findIndex((passage) => passage.chunkId === citation.chunkId) + 1;
  }

  async function passageText(citation: Citation): Promise<string> {
    const chunks = await offlineJson<ListPage<ChunkView>>(
      `/documents/${citation.documentId}/chunks?chunk=${citation.chunkId}`,
    );
    const chunk = chunks.items.find((item) => item.id === citation.chunkId);
    if (!chunk) throw new Error(`chunk ${citation.chunkId} not on its page`);
    return chunk.text;
  }

  /**
   * Asks in the browser and checks every marker of the answer: the dialog opens the stored citation's
   * passage, which holds the quote the marker closes, and the marks are that quote's words.
   */
  async function askAndFollowEveryMarker(question: string) {
    await chat.ask(question);
    expect(await chat.waitForAnswer(60_000)).toBe('done');
    const { message, trace } = await storedAnswer(question);
    expect(message.notFound).toBe(false);
    const quotes = markerQuotes(message.content);
    expect(quotes.length).toBeGreaterThan(0);

    const buttons = chat.lastAnswer().locator('.answer-text button.cite');
    expect(await buttons.count()).toBe(quotes.length);
    for (let i = 0; i < quotes.length; i += 1) {
      const { marker, quote } = quotes[i];
      const citation = message.citations.find((c) => c.marker === marker);
      if (!citation) throw new Error(`marker [${marker}] of "${question}" has no citation`);
      expect(passageHoldsQuote(await passageText(citation), quote)).toBe(true);

      const button = buttons.nth(i);
      expect(await button.getAttribute('aria-label')).toMatch(new RegExp(`^Source ${marker}\\b`));
      await button.click();
      const dialog = chat.citationDialog;
      await dialog.waitFor();
      const passage = dialog.locator('.cited-passage');
      await passage.waitFor();
      expect(await passage.getAttribute('data-chunk-id')).toBe(citation.chunkId);
      const marks = (await passage.locator('mark.cited-span').allInnerTexts()).filter((t) => words(t).length);
      expect(marks.length).toBeGreaterThan(0);
      // Each mark is a run of the quote's words, and together they are the quote (not a fallback sentence).
      const quoted = words(quote);
      for (const mark of marks) expect(holdsRun(quoted, words(mark))).toBe(true);
      expect(marks.flatMap(words).length).toBe(quoted.length);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    return {
      message,
      trace,
      first: message.citations.find((c) => c.marker === quotes[0].marker) as Citation,
    };
  }

  it('follows every citation to the passage holding its quote: deep quotes, a topic switch, a follow-up', async () => {
    for (const { question, title, words: expected } of DEEP_QUOTES) {
      const { message, trace, first } = await askAndFollowEveryMarker(question);
      expect(message.content).toContain(expected);
      expect(first.title).toBe(title);
      // The precondition this replay is about: the first quote is not from the top-ranked passage.
      expect(rankOf(first, trace)).toBeGreaterThanOrEqual(2);
    }
    await screenshot(page, 'newcomer-deep-quotes.png', false);

    // Another library's question: searched alone, answered from that library, nothing of the last one.
    const switched = await askAndFollowEveryMarker(SWITCH.question);
    expect(switched.trace.rewrite).toBe('none');
    expect(switched.first.title).toBe(SWITCH.title);
    expect(switched.message.citations.every((c) => c.title === SWITCH.title)).toBe(true);

    // A follow-up that points back is searched with the earlier question and stays on its document.
    const followUp = await askAndFollowEveryMarker(FOLLOW_UP.question);
    expect(followUp.trace.rewrite).toBe('history');
    expect(followUp.message.content).toContain(FOLLOW_UP.words);
    expect(followUp.first.title).toBe(SWITCH.title);
    expect(followUp.first.headingPath.at(-1)).toBe('Counter');
    // The README's first heading carries a badge link: its path reads as the title does, no Markdown.
    expect(followUp.first.headingPath[0]).toBe(SWITCH.title);
    const labels = [...switched.message.citations, ...followUp.message.citations].flatMap(
      (c) => c.headingPath,
    );
    expect(labels.filter((label) => /[[\]<>]|&nbsp;|!\[/.test(label))).toEqual([]);

    expect(await chat.conversation.locator('li.message-assistant').count()).toBe(6);
    await screenshot(page, 'newcomer-follow-up.png', false);
  });
});
