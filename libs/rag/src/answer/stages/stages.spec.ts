import { NOT_FOUND_SENTENCE, NOT_FOUND_SENTENCES } from '@lumina/shared';
import type { AnswerabilityVerdict } from '@lumina/shared';
import type { SearchResult } from '../../pipeline/search-result';
import { FakeChatModel, FakeEmbedder, searchHit, searchResult } from '../../testing';
import { StageFailure, recordFailure, startRun, timed } from './answer-run';
import type { RetrievalStage } from './answer-run';
import { citeModelAnswer, citeQuotedAnswer, renumberCitations } from './cite';
import { refuse, refusesBeforeWriting } from './decide';
import { generateExtractive, generateWithModel } from './generate';
import { rewriteFollowUp } from './rewrite';
import { receiveSearch, searchStage } from './search';
import { answerRecord } from './store';

const hits = [
  searchHit({ chunkId: 'c1', documentId: 'd1', text: 'Backups run nightly at two in the morning.' }),
  searchHit({
    chunkId: 'c2',
    documentId: 'd2',
    text: 'Run pg_ctl promote on the standby to fail over the primary.',
    rerank: { model: 'learned-v1' },
  }),
];
const found = (overrides: Partial<SearchResult> = {}) => searchResult(hits, overrides);
const verdict = (answerable: boolean): AnswerabilityVerdict => ({
  modelVersion: 'm',
  score: answerable ? 0.9 : 0.1,
  threshold: 0.5,
  answerable,
  features: {},
  contributions: {},
  terms: [],
});

/** A run of the question "How do I fail over?" that records what its sink hears. */
function newRun(signal?: AbortSignal) {
  const tokens: string[] = [];
  const retrievals: RetrievalStage[] = [];
  let clock = 0;
  const run = startRun(
    'How do I fail over?',
    { generator: 'none', source: 'documents', model: null, promptVersion: null },
    { token: (t) => tokens.push(t), retrieval: (r) => retrievals.push(r) },
    signal,
    () => (clock += 5),
  );
  return { run, tokens, retrievals };
}
const history = [
  { role: 'user' as const, content: 'What does the standby do?' },
  { role: 'assistant' as const, content: 'It follows the primary [1].' },
];

describe('the rewrite stage', () => {
  it('leaves a first question as asked, without calling the model', async () => {
    const { run } = newRun();
    const model = new FakeChatModel('never');
    expect(await rewriteFollowUp(run, [], model)).toBe(false);
    expect(model.requests).toHaveLength(0);
    expect([run.outcome.standaloneQuery, run.outcome.rewrite]).toEqual(['How do I fail over?', 'none']);
  });

  it("takes the model's standalone query for a follow-up, else hands it to the offline rule with a warning", async () => {
    const rewritten = newRun();
    expect(
      await rewriteFollowUp(rewritten.run, history, new FakeChatModel('How does the standby fail over?')),
    ).toBe(false);
    expect(rewritten.run.outcome).toEqual(
      expect.objectContaining({ standaloneQuery: 'How does the standby fail over?', rewrite: 'llm' }),
    );
    const failed = newRun();
    expect(await rewriteFollowUp(failed.run, history, new FakeChatModel(new Error('boom')))).toBe(true);
    expect(failed.run.outcome.warnings).toEqual([expect.stringContaining('(boom)')]);
    expect(await rewriteFollowUp(newRun().run, history, null)).toBe(true);
  });

  it('throws when the caller aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('left'));
    const { run } = newRun(controller.signal);
    await expect(rewriteFollowUp(run, history, new FakeChatModel('q'))).rejects.toThrow('left');
  });
});

describe('the search stage', () => {
  it('searches the standalone query with the settings, and numbers the hits as passages for the sink', async () => {
    const { run, retrievals } = newRun();
    const asked: [string, unknown][] = [];
    const result = await searchStage(
      run,
      async (query, settings) => {
        asked.push([query, settings]);
        return found({ warnings: ['slow'] });
      },
      { topK: 3 },
      [],
      false,
    );
    expect(asked).toEqual([['How do I fail over?', { topK: 3 }]]);
    receiveSearch(run, result);
    expect(run.outcome.passages.map((p) => [p.marker, p.chunkId, p.rerank?.model])).toEqual([
      [1, 'c1', undefined],
      [2, 'c2', 'learned-v1'],
    ]);
    expect(run.outcome.warnings).toEqual(['slow']);
    expect(retrievals).toEqual([
      expect.objectContaining({ passages: run.outcome.passages, warnings: ['slow'], belowThreshold: false }),
    ]);
  });

  it('searches an offline follow-up by the follow-up rule and says why', async () => {
    const { run } = newRun();
    const queries: string[] = [];
    await searchStage(
      run,
      async (query) => {
        queries.push(query);
        return found();
      },
      {},
      history,
      true,
    );
    expect(queries[0]).toBe('How do I fail over?');
    expect(run.outcome.rewriteReason).not.toBeNull();
  });
});

describe('the decide stage', () => {
  it('refuses before writing when nothing was found, nothing passed the threshold, or the verdict says no', () => {
    expect(refusesBeforeWriting(found())).toBe(false);
    expect(refusesBeforeWriting(found({ answerability: verdict(true) }))).toBe(false);
    expect(refusesBeforeWriting(searchResult([]))).toBe(true);
    expect(refusesBeforeWriting(found({ belowThreshold: true }))).toBe(true);
    expect(refusesBeforeWriting(found({ answerability: verdict(false) }))).toBe(true);
  });

  it('writes the not-found sentence in the language the search decided, or English', () => {
    const german = newRun();
    german.run.outcome.search = found({ language: 'de' });
    refuse(german.run);
    expect([german.run.outcome.notFound, german.tokens]).toEqual([true, [NOT_FOUND_SENTENCES.de]]);
    const unknown = newRun();
    refuse(unknown.run);
    expect(unknown.run.outcome.text).toBe(NOT_FOUND_SENTENCE);
  });
});

describe('the generate and cite stages', () => {
  const withPassages = () => {
    const made = newRun();
    receiveSearch(made.run, found());
    return made;
  };

  it('streams a model answer through the sanitiser and cites its valid markers', async () => {
    const { run, tokens } = withPassages();
    const model = new FakeChatModel('', 0, 'scripted', { pieces: ['Promote it [2', '] [7].'] });
    await generateWithModel(run, model);
    expect(run.outcome).toEqual(
      expect.objectContaining({
        generator: 'llm',
        model: 'scripted',
        text: 'Promote it [2].',
        droppedMarkers: [7],
      }),
    );
    expect(tokens.join('')).toBe(run.outcome.text);
    expect(run.outcome.citations.map((c) => c.chunkId)).toEqual(['c2']);
  });

  it('keeps and cites what the model wrote before it broke off, then throws', async () => {
    const { run } = withPassages();
    const model = new FakeChatModel('', 0, 'scripted', {
      pieces: ['Promote [2]'],
      failWith: new Error('cut'),
    });
    await expect(generateWithModel(run, model)).rejects.toThrow('cut');
    expect([run.outcome.text, run.outcome.uncited]).toEqual(['Promote [2]', false]);
    expect(run.outcome.citations).toHaveLength(1);
  });

  it('offline, quotes the closest sentence with its marker renumbered to 1', async () => {
    const { run, tokens } = withPassages();
    await generateExtractive(run, new FakeEmbedder(), undefined);
    expect(run.outcome).toEqual(expect.objectContaining({ generator: 'extractive', notFound: false }));
    expect(run.outcome.text).toContain('pg_ctl promote');
    expect(run.outcome.text).toContain('[1]');
    expect(run.outcome.citations.map((c) => [c.marker, c.chunkId])).toEqual([[1, 'c2']]);
    expect(tokens.join('')).toBe(run.outcome.text);
  });

  it('flags a complete model answer without citations as uncited, and a refusal as not found', () => {
    const { run } = withPassages();
    citeModelAnswer(run.outcome, 'Just do it.', [], true);
    expect([run.outcome.uncited, run.outcome.notFound]).toEqual([true, false]);
    // An answer the model broke off is not judged on its citations.
    citeModelAnswer(run.outcome, 'Just do', [], false);
    expect(run.outcome.uncited).toBe(false);
    citeModelAnswer(run.outcome, NOT_FOUND_SENTENCE, [3], true);
    expect([run.outcome.uncited, run.outcome.notFound, run.outcome.droppedMarkers]).toEqual([
      false,
      true,
      [3],
    ]);
  });

  it('renumbers a quoted answer in citing order, uncited passages after the cited ones', () => {
    const { run } = withPassages();
    citeQuotedAnswer(run.outcome, 'Promote [2]. Back up [1].');
    expect(run.outcome.text).toBe('Promote [1]. Back up [2].');
    expect(run.outcome.passages.map((p) => [p.chunkId, p.marker])).toEqual([
      ['c1', 2],
      ['c2', 1],
    ]);
    expect(renumberCitations('No markers [9].', run.outcome.passages).text).toBe('No markers [9].');
  });
});

describe('a failing stage', () => {
  it('is timed, and recorded as failed with its code, or cancelled when the caller aborted', async () => {
    const { run } = newRun();
    const failure = await timed(run, 'search', 'search_failed', () =>
      Promise.reject(new Error('db down')),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StageFailure);
    expect(run.outcome.timings.search).toBe(5);
    recordFailure(run.outcome, failure as StageFailure);
    expect(run.outcome).toEqual(
      expect.objectContaining({
        status: 'failed',
        error: expect.objectContaining({ code: 'search_failed', detail: 'db down' }),
      }),
    );
    const controller = new AbortController();
    controller.abort();
    recordFailure(run.outcome, failure as StageFailure, controller.signal);
    expect(run.outcome.status).toBe('cancelled');
  });
});

describe('the store stage', () => {
  it('records a failed answer without a search: no settings, no collections, the error with its reason', () => {
    const { run } = newRun();
    recordFailure(run.outcome, new StageFailure('search_failed', new Error('db down')));
    const { message, trace } = answerRecord(run.outcome);
    expect(message).toEqual(expect.objectContaining({ status: 'failed', content: '', notFound: false }));
    expect(message.error).toMatch(/^Searching the documents failed.* \(db down\)$/);
    expect(trace).toEqual(
      expect.objectContaining({ settings: null, collectionIds: [], belowThreshold: false, retrieved: [] }),
    );
  });

  it("records an answer's passages as the trace's retrieved ids, scores and provenance", () => {
    const { run } = newRun();
    receiveSearch(run, found({ collectionIds: ['k1'] }));
    const { trace } = answerRecord(run.outcome);
    expect(trace.collectionIds).toEqual(['k1']);
    expect(trace.retrieved).toEqual([
      { marker: 1, chunkId: 'c1', documentId: 'd1', score: 1, similarity: null, provenance: [] },
      {
        marker: 2,
        chunkId: 'c2',
        documentId: 'd2',
        score: 1,
        similarity: null,
        provenance: [],
        rerank: { model: 'learned-v1' },
      },
    ]);
  });
});
