import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import {
  asksForCode,
  candidateSentences,
  codeHoldsTerm,
  cosineSimilarity,
  extractiveAnswer,
  formatExtractiveAnswer,
  isNavigation,
  lexicalScore,
  markdownBlocks,
  matchesStem,
  quotedTableRow,
  selectSentences,
  unquoteBlockQuotes,
} from './extractive-answerer';
import type { QuotedSentence } from './extractive-answerer';

/** An embedder over a tiny vocabulary: one dimension per topic word, so similarities are exact. */
class TopicEmbedder implements EmbeddingProvider {
  readonly modelId = 'topics';
  readonly dimension = 4;
  readonly maxInputChars = 1000;
  readonly calls: string[][] = [];
  private readonly topics = ['replica', 'backup', 'redis', 'access'];

  constructor(readonly queryPrefix?: string) {}

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    return texts.map((text) => this.topics.map((topic) => (text.toLowerCase().includes(topic) ? 1 : 0)));
  }
}

const passages = [
  {
    marker: 1,
    context: 'Runbook › Failover',
    text: '# Failover\n\nPromote the standby replica now. Then repoint the replica clients. See below.',
  },
  { marker: 2, text: 'Nightly backup runs at two. Redis holds the queues.' },
];

const terms = (...pairs: [string, number][]) => pairs.map(([term, weight]) => ({ term, weight }));

describe('extractive answerer', () => {
  it('never quotes link reference definitions, badge lines or HTML blocks', () => {
    const text = [
      '[![NPM Version][npm-version-image]][npm-url] [![Build][ci-image]][ci-url]',
      '',
      '<p align="center">Sponsored by the Acme Corporation and its many friends everywhere</p>',
      '',
      'Set the referer header on every outgoing request with the referer option.',
      '',
      '[Referer]: https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referer',
      '[npm-url]: https://npmjs.org/package/multer',
    ].join('\n');
    expect(candidateSentences([{ marker: 1, text }]).map((c) => c.text)).toEqual([
      'Set the referer header on every outgoing request with the referer option.',
    ]);
  });

  it('quotes a sentence from a block quote without its > marks, its offsets still in the passage', () => {
    const text = [
      '> ## Security Releases and Semver',
      '>',
      '> Such changes will _always_ be noted in the release notes of the project.',
      '> To avoid receiving breaking security updates, use the tilde',
      '> range qualifier for the dependency.',
      '',
      '> **IMPORTANT**',
      '> The default value is highly advised.',
    ].join('\n');
    const candidates = candidateSentences([{ marker: 1, text }]);
    expect(candidates.map((c) => c.text)).toEqual([
      'Such changes will _always_ be noted in the release notes of the project.',
      'To avoid receiving breaking security updates, use the tilde range qualifier for the dependency.',
      '**IMPORTANT** The default value is highly advised.',
    ]);
    // The offsets point at the sentence's own words in the passage (the dialog marks from there).
    expect(text.slice(candidates[0].start, candidates[0].end)).toBe(
      'Such changes will _always_ be noted in the release notes of the project.',
    );
    expect(text.slice(candidates[1].start, candidates[1].end)).toBe(
      'To avoid receiving breaking security updates, use the tilde\n> range qualifier for the dependency.',
    );
  });

  it('quotes a list item or paragraph wrapped onto further lines whole, offsets in the passage', () => {
    const text = [
      '- Only TS-Node is supported for now, there is no TSM support.',
      '- Running transports TypeScript code on TS-Node seems to be problematic on',
      '  Windows systems, there is no official support for that yet.',
      '- A lazily wrapped item keeps its second line',
      'even without an indent. Its next sentence stays with it.',
      '  - A nested item is an item of its own.',
      '',
      'A paragraph whose sentence wraps',
      'onto a second line is read whole.',
      '## Heading ends it',
      '',
      'Text before a fence',
      '```',
      'code line',
      '```',
    ].join('\n');
    const candidates = candidateSentences([{ marker: 1, text }]);
    expect(candidates.map((c) => c.text)).toEqual([
      'Only TS-Node is supported for now, there is no TSM support.',
      'Running transports TypeScript code on TS-Node seems to be problematic on Windows systems, there is no official support for that yet.',
      'A lazily wrapped item keeps its second line even without an indent. Its next sentence stays with it.',
      'A nested item is an item of its own.',
      'A paragraph whose sentence wraps onto a second line is read whole.',
      'Text before a fence',
    ]);
    // An item is navigation only when each of its lines is: a package's link wrapped onto its prose stays.
    const packages = [
      '+ [`koa-pino-logger`](https://github.com/pinojs/koa-pino-logger): use Pino to',
      'log requests within [Koa](https://koajs.com/).',
      '+ [Install](#install)',
      '  [Usage](#usage)',
      '+',
    ].join('\n');
    expect(candidateSentences([{ marker: 1, text: packages }]).map((c) => c.text)).toEqual([
      '[`koa-pino-logger`](https://github.com/pinojs/koa-pino-logger): use Pino to log requests within [Koa](https://koajs.com/).',
    ]);
    // Each quote's offsets cover its words in the passage, line break and indent included.
    expect(text.slice(candidates[1].start, candidates[1].end)).toBe(
      'Running transports TypeScript code on TS-Node seems to be problematic on\n  Windows systems, there is no official support for that yet.',
    );
    for (const c of candidates) {
      expect(text.slice(c.start, c.end).replace(/\s+/g, ' ')).toBe(c.text);
    }
  });

  it('keeps the items nested under a list item that ends with a colon', async () => {
    const text = [
      '+ `tracing:pino_asJson:end`: emitted at the end of the final serialization',
      '  process. The emitted event payload has the following fields:',
      '  - `instance`: the Pino instance associated with the function',
      '  - `result`: the finalized, newline delimited, log line as a string',
      '+ `tracing:pino_asJson:start`: emitted when the final serialization starts.',
    ].join('\n');
    const candidates = candidateSentences([{ marker: 1, text }]);
    expect(candidates[0].block).toBe(
      '- `instance`: the Pino instance associated with the function\n- `result`: the finalized, newline delimited, log line as a string',
    );
    // The nested items and the next item of the outer list introduce nothing.
    expect(candidates.slice(1).map((c) => c.block)).toEqual([null, null, null]);
  });

  it('keeps a code block inside a block quote, unquoted, and leaves a prompt in a code block alone', async () => {
    const quoted = '> Start the server with the start command:\n>\n> ```sh\n> npm start\n> ```';
    const answer = await extractiveAnswer(
      'how do I start the server',
      [{ marker: 1, text: quoted }],
      null,
      {},
      undefined,
      terms(['start', 1], ['server', 1]),
    );
    expect(answer.text).toBe('Start the server with the start command: [1]\n\n```sh\nnpm start\n```');
    const prompt = '```sh\n> npm start\n```\n> A quoted note about the server.';
    expect(unquoteBlockQuotes(prompt)).toBe('```sh\n> npm start\n```\n  A quoted note about the server.');
    expect(unquoteBlockQuotes('> [!NOTE]\n> Useful words.')).toBe('         \n  Useful words.');
  });

  it('splits passages into quotable sentences: no headings, no tiny sentences, no repeats', () => {
    const candidates = candidateSentences([
      ...passages,
      { marker: 3, text: 'Promote the standby replica now.' },
    ]);
    expect(candidates.map((c) => [c.marker, c.text])).toEqual([
      [1, 'Promote the standby replica now.'],
      [1, 'Then repoint the replica clients.'],
      [2, 'Nightly backup runs at two.'],
      [2, 'Redis holds the queues.'],
    ]);
    expect(passages[0].text.slice(candidates[0].start, candidates[0].end)).toBe(
      'Promote the standby replica now.',
    );
  });

  it('cuts Markdown into blocks and calls tables of contents, link lists and badges noise', () => {
    const text = [
      '# Title',
      '',
      '- [Install](#install)',
      '- [Usage](#usage)',
      '',
      '[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x) [![ci](https://ci/x.svg)](https://ci/x)',
      '',
      'To connect using Sentinel, use:',
      '',
      '```js',
      'new Redis({ sentinels: [{ host: "localhost", port: 26379 }], name: "mymaster" });',
      '```',
      '',
      '| Option | Default |',
      '| --- | --- |',
      '| retries | 3 |',
    ].join('\n');
    expect(markdownBlocks(text).map((b) => b.kind)).toEqual([
      'heading',
      'noise',
      'noise',
      'prose',
      'code',
      'table',
    ]);
    expect(
      isNavigation('See the [guide](https://example.com/guide) for every option you can set here.'),
    ).toBe(false);
    expect(isNavigation('[Docs](a) · [API](b) · [Changelog](c)')).toBe(true);
  });

  it('keeps the code block a quoted sentence introduces', async () => {
    const text =
      'To connect using Sentinel, use:\n\n```js\nnew Redis({ name: "mymaster" });\n```\n\nOther words here.';
    const answer = await extractiveAnswer(
      'how do I connect with sentinel',
      [{ marker: 1, text }],
      null,
      {},
      undefined,
      terms(['connect', 2], ['sentinel', 3]),
    );
    expect(answer.text).toBe(
      'To connect using Sentinel, use: [1]\n\n```js\nnew Redis({ name: "mymaster" });\n```',
    );
  });

  it('tells questions a code example answers', () => {
    expect(asksForCode('How do I connect ioredis to Sentinel?')).toBe(true);
    expect(asksForCode('how to add my own log level')).toBe(true);
    expect(asksForCode("what's the syntax for a custom validator")).toBe(true);
    expect(asksForCode('What is the default log level?')).toBe(false);
    expect(asksForCode('Who maintains pino?')).toBe(false);
  });

  it('quotes the code block after a sentence, colon or not, when the question asks how', async () => {
    const text = [
      'ioredis supports Sentinel out of the box. You connect to a Sentinel group with the sentinels option.',
      '',
      '```js',
      'const redis = new Redis({ sentinels: [{ host: "localhost", port: 26379 }], name: "mymaster" });',
      '```',
      '',
      'Sentinels listen on port 26379 by default, and ioredis connects to a Sentinel group in order.',
    ].join('\n');
    const t = terms(['connect', 2], ['sentinel', 3]);
    const how = await extractiveAnswer(
      'How do I connect to Sentinel?',
      [{ marker: 1, text }],
      null,
      {},
      undefined,
      t,
    );
    expect(how.text).toContain(
      'You connect to a Sentinel group with the sentinels option. [1]\n\n```js\nconst redis = new Redis(',
    );
    // The same words without "how": the sentences alone, no code.
    const which = await extractiveAnswer(
      'Sentinel connect order',
      [{ marker: 1, text }],
      null,
      {},
      undefined,
      t,
    );
    expect(which.text).not.toContain('```');
    expect(which.sentences.every((sentence) => sentence.block === null)).toBe(true);
  });

  it('prefers the sentence that introduces an example for a how question, within the bonus', async () => {
    const passages2 = [
      { marker: 1, text: 'A Sentinel group is watched by the client, which connects to it again.' },
      {
        marker: 2,
        text: 'Connect to a Sentinel group with the sentinels option:\n\n```js\nnew Redis({ sentinels });\n```',
      },
    ];
    const t = terms(['connect', 1], ['sentinel', 1], ['group', 1]);
    const options = { maxSentences: 1, relativeFloor: 1 };
    const how = await extractiveAnswer(
      'How do I connect to a Sentinel group?',
      passages2,
      null,
      options,
      undefined,
      t,
    );
    expect(how.text).toBe(
      'Connect to a Sentinel group with the sentinels option: [2]\n\n```js\nnew Redis({ sentinels });\n```',
    );
    const what = await extractiveAnswer('Sentinel group connect', passages2, null, options, undefined, t);
    expect(what.text).toBe('A Sentinel group is watched by the client, which connects to it again. [1]');
  });

  it('gives the how-question bonus only to a code block holding a word of the question', async () => {
    const passages2 = [
      { marker: 1, text: 'A Sentinel group is watched by the client, which connects to it again.' },
      {
        marker: 2,
        text: 'Connect to a Sentinel group with the sentinels option:\n\n```js\nnew Cluster({ port: 6379 });\n```',
      },
    ];
    const t = terms(['connect', 1], ['sentinel', 1], ['group', 1]);
    const how = await extractiveAnswer(
      'How do I connect to a Sentinel group?',
      passages2,
      null,
      { maxSentences: 1, relativeFloor: 1 },
      undefined,
      t,
    );
    expect(how.text).toBe('A Sentinel group is watched by the client, which connects to it again. [1]');
    expect(codeHoldsTerm('```js\nnew Cluster({ port: 6379 });\n```', t)).toBe(false);
    expect(codeHoldsTerm('```js\nnew Redis({ sentinels });\n```', t)).toBe(true);
    expect(codeHoldsTerm('```js\nconst groupName = connectTo(host)\n```', t)).toBe(true);
    expect(codeHoldsTerm('```js\nconst log_group = 1\n```', terms(['group', 1]))).toBe(true);
  });

  it('turns table rows into readable lines and skips the header rule', () => {
    const rows = candidateSentences([
      { marker: 1, text: '| Option | Default value |\n| --- | --- |\n| retries | three times |' },
    ]);
    expect(rows.map((r) => r.text)).toEqual(['Option — Default value', 'retries — three times']);
    expect(rows.map((r) => r.table ?? null)).toEqual([
      null,
      { header: '| Option | Default value |', row: '| retries | three times |' },
    ]);
    expect(rows[0].tableHeader).toBe(true);
  });

  it('quotes a table row under its header, never the header alone, the marker in its last cell', async () => {
    const text = [
      'Options of the client:',
      '',
      '| Key | Description | Default |',
      '| --- | :--- | --- |',
      '| `retries` | How many times a failed request is retried | 3 |',
      '| `timeout` | Milliseconds before a request is aborted | 30000 |',
    ].join('\n');
    const answer = await extractiveAnswer(
      'what is the default timeout?',
      [{ marker: 2, text }],
      null,
      {},
      undefined,
      [
        { term: 'timeout', weight: 3 },
        { term: 'default', weight: 1 },
      ],
    );
    expect(answer.text).toBe(
      [
        '| Key | Description | Default |',
        '| --- | --- | --- |',
        '| `timeout` | Milliseconds before a request is aborted | 30000 [2] |',
      ].join('\n'),
    );
    expect(answer.sentences.some((s) => s.tableHeader)).toBe(false);
  });

  it('quotes a row of a table without a header rule as a line', () => {
    const rows = candidateSentences([
      { marker: 1, text: '| retries | three times |\n| timeout | thirty s |' },
    ]);
    expect(rows.map((r) => [r.text, r.table ?? null])).toEqual([
      ['retries — three times', null],
      ['timeout — thirty s', null],
    ]);
  });

  it('pads a short row to the header and closes it with the marker', () => {
    expect(quotedTableRow('| a | b | c |', '| x |', 4)).toBe(
      '| a | b | c |\n| --- | --- | --- |\n| x |  | [4] |',
    );
  });

  it('matches Snowball stems against word forms', () => {
    expect(matchesStem('configuration', 'configur')).toBe(true);
    expect(matchesStem('retry', 'retri')).toBe(true);
    expect(matchesStem('redact', 'redaction')).toBe(true);
    expect(matchesStem('log', 'logger')).toBe(false);
  });

  it('scores a sentence by the question weight it carries; headings count a share', () => {
    const t = terms(['replica', 3], ['promot', 1]);
    const options = { contextWeight: 0.5, rankDecay: 0 };
    expect(lexicalScore({ text: 'Promote the standby replica now.', context: '', rank: 0 }, t, options)).toBe(
      1,
    );
    expect(lexicalScore({ text: 'Promote it now.', context: 'Replica', rank: 0 }, t, options)).toBeCloseTo(
      (1 + 0.5 * 3) / 4,
    );
    expect(lexicalScore({ text: 'Nothing here.', context: '', rank: 0 }, t, options)).toBe(0);
    expect(
      lexicalScore({ text: 'Promote the standby replica now.', context: '', rank: 2 }, t, {
        ...options,
        rankDecay: 0.1,
      }),
    ).toBeCloseTo(0.81);
  });

  it('selects the best sentences within the floor, in reading order', () => {
    const scored = candidateSentences(passages).map((c, i) => ({ ...c, score: [0.5, 0.9, 0.1, 0.8][i] }));
    const picked = selectSentences(scored, { maxSentences: 2, relativeFloor: 0.5 });
    expect(picked.map((s) => s.text)).toEqual([
      'Then repoint the replica clients.',
      'Redis holds the queues.',
    ]);
    expect(selectSentences(scored.map((s) => ({ ...s, score: 0 })))).toEqual([]);
  });

  it('formats one paragraph per passage with its marker', () => {
    const s = (marker: number, text: string): QuotedSentence => ({
      marker,
      rank: marker - 1,
      text,
      context: '',
      start: 0,
      end: text.length,
      block: null,
      score: 1,
    });
    expect(formatExtractiveAnswer([s(1, 'One.'), s(1, 'Two.'), s(3, 'Three.')])).toBe(
      'One. Two. [1]\n\nThree. [3]',
    );
    expect(formatExtractiveAnswer([s(1, 'x'.repeat(10))], 4)).toBe('xxxx… [1]');
    // A quoted sentence's own reference link or bracketed number never reads as a citation marker.
    expect(formatExtractiveAnswer([s(1, 'See the notes [here][2] and study [12].')])).toBe(
      'See the notes here and study 12. [1]',
    );
  });

  it('answers with the sentences that carry the question words, offline, without the embedder', async () => {
    const answer = await extractiveAnswer('Which replica do we promote?', passages, null, {}, undefined, [
      { term: 'replica', weight: 2 },
      { term: 'promot', weight: 1 },
    ]);
    expect(answer.notFound).toBe(false);
    expect(answer.text).toBe('Promote the standby replica now. Then repoint the replica clients. [1]');
  });

  it('refuses when no sentence holds any question word', async () => {
    const answer = await extractiveAnswer('kafka consumer groups', passages, null, {}, undefined, [
      { term: 'kafka', weight: 5 },
    ]);
    expect(answer).toMatchObject({ notFound: true, text: '', sentences: [] });
  });

  it('lets the embedder re-order only the lexically best few', async () => {
    const embedder = new TopicEmbedder();
    const answer = await extractiveAnswer(
      'redis backup',
      passages,
      embedder,
      { denseCandidates: 2, denseWeight: 1, maxSentences: 1, relativeFloor: 1 },
      undefined,
      [
        { term: 'backup', weight: 1 },
        { term: 'redi', weight: 1 },
      ],
    );
    expect(embedder.calls[0]).toHaveLength(3);
    expect(answer.sentences).toHaveLength(1);
  });

  it("embeds the question behind the model's query prefix and the sentences without it", async () => {
    const embedder = new TopicEmbedder('query: ');
    await extractiveAnswer(
      'redis backup',
      passages,
      embedder,
      { denseCandidates: 2, denseWeight: 1 },
      undefined,
      [
        { term: 'backup', weight: 1 },
        { term: 'redi', weight: 1 },
      ],
    );
    const [question, ...sentences] = embedder.calls[0];
    expect(question).toBe('query: redis backup');
    expect(sentences.length).toBeGreaterThan(0);
    sentences.forEach((sentence) => expect(sentence).not.toMatch(/^query: /));
  });

  it('falls back to the question words when the index gave no terms', async () => {
    const answer = await extractiveAnswer('standby replica', passages, null);
    expect(answer.text).toContain('Promote the standby replica now.');
  });

  it('finds the words of a script without spaces inside its sentences', async () => {
    const text = '北京是中国的首都。上海是最大的城市。';
    const answer = await extractiveAnswer('中国的首都是哪里？', [{ marker: 1, text }], null, {}, undefined, [
      { term: '首都', weight: 2 },
      { term: '中国', weight: 1 },
    ]);
    expect(answer.text).toBe('北京是中国的首都。 [1]');
  });

  it('computes cosine similarity on normalised vectors', () => {
    expect(cosineSimilarity([1, 0], [2, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 3])).toBeCloseTo(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(RangeError);
  });
});
