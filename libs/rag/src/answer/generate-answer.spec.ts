import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import type { SearchHit, SearchResult } from '../pipeline/search-result';
import { CompletionError } from '../ports/completion-error';
import { FakeChatModel, FakeEmbedder, searchHit, searchResult } from '../testing';
import { generateAnswer } from './generate-answer';
import { ANSWER_ERROR_MESSAGES } from './stages/answer-run';
import type { AnswerDeps } from './stages/answer-run';
import { generateGeneralAnswer } from './stages/generate';

const hit = (n: number, text: string): SearchHit =>
  searchHit({
    chunkId: `chunk-${n}`,
    documentId: `doc-${n}`,
    documentTitle: `Doc ${n}`,
    headingPath: [`H${n}`],
    anchor: `h${n}`,
    text,
    score: 1 / n,
    provenance: [{ branch: 'original:bm25', rank: n, score: 10 - n }],
  });

const result = (results: SearchHit[], belowThreshold = false): SearchResult =>
  searchResult(results, { query: 'q', belowThreshold });

/**
 * A chat model that streams scripted pieces, then optionally fails (else reports its usage); complete()
 * answers `rewrite`.
 */
const scripted = (
  pieces: string[],
  failWith?: Error,
  rewrite: string | Error = 'standalone question',
): FakeChatModel =>
  new FakeChatModel(rewrite, 0, 'scripted', {
    pieces,
    failWith,
    usage: { promptTokens: 5, completionTokens: pieces.length },
  });

const deps = (chatModel: FakeChatModel | null, search: AnswerDeps['search']): AnswerDeps => ({
  search,
  chatModel,
  embedder: new FakeEmbedder(),
});
const passages = [hit(1, 'Promote the standby.'), hit(2, 'Backups run nightly.')];
const input = { question: 'How do I fail over?', history: [], settings: {} };

describe('generateAnswer', () => {
  it('streams a sanitised LLM answer and maps its markers to chunks', async () => {
    const model = scripted(['Promote it [2', '] [5].']);
    const tokens: string[] = [];
    const outcome = await generateAnswer(
      input,
      deps(model, async () => result(passages)),
      {
        token: (t) => tokens.push(t),
      },
    );
    expect(outcome).toEqual(
      expect.objectContaining({
        status: 'complete',
        text: 'Promote it [2].',
        generator: 'llm',
        notFound: false,
        uncited: false,
        droppedMarkers: [5],
        usage: { promptTokens: 5, completionTokens: 2 },
        promptVersion: 'answer-v1',
      }),
    );
    expect(tokens.join('')).toBe(outcome.text);
    expect(outcome.citations.map((c) => [c.marker, c.chunkId])).toEqual([[2, 'chunk-2']]);
    expect(outcome.timings.firstToken).not.toBeNull();
  });

  it('refuses without calling the model when nothing was found or the search was below the threshold', async () => {
    for (const found of [result([]), result(passages, true)]) {
      const model = scripted(['never']);
      const outcome = await generateAnswer(
        input,
        deps(model, async () => found),
      );
      expect(outcome).toEqual(
        expect.objectContaining({
          text: NOT_FOUND_SENTENCE,
          notFound: true,
          generator: 'none',
          status: 'complete',
        }),
      );
      expect(model.requests).toHaveLength(0);
    }
  });

  it('flags an LLM answer without any citation as uncited, but not a refusal', async () => {
    const uncited = await generateAnswer(
      input,
      deps(scripted(['Just do it.']), async () => result(passages)),
    );
    expect(uncited.uncited).toBe(true);
    const refusal = await generateAnswer(
      input,
      deps(scripted([NOT_FOUND_SENTENCE]), async () => result(passages)),
    );
    expect([refusal.notFound, refusal.uncited]).toEqual([true, false]);
  });

  it('reports a failed search as search_failed with a sentence a person understands', async () => {
    const outcome = await generateAnswer(
      input,
      deps(null, async () => {
        throw new Error('connection refused');
      }),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toEqual({
      code: 'search_failed',
      message: ANSWER_ERROR_MESSAGES.search_failed,
      detail: 'connection refused',
    });
  });

  it('keeps the partial text (with its citations) when the model times out mid-stream', async () => {
    const model = scripted(
      ['Promote the standby [1] ', 'and then'],
      new CompletionError('slow', { timeout: true }),
    );
    const outcome = await generateAnswer(
      input,
      deps(model, async () => result(passages)),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('llm_timeout');
    expect(outcome.text).toBe('Promote the standby [1] and then');
    expect(outcome.citations.map((c) => c.marker)).toEqual([1]);
    expect(outcome.uncited).toBe(false);
  });

  it('calls an interrupted answer cancelled when the caller aborted', async () => {
    const controller = new AbortController();
    const model = scripted(['one ', 'two ', 'three']);
    const outcome = await generateAnswer(
      { ...input, signal: controller.signal },
      deps(model, async () => result(passages)),
      { token: () => controller.abort(new Error('client left')) },
    );
    expect(outcome.status).toBe('cancelled');
    expect(outcome.error?.detail).toBe('client left');
  });

  it('rewrites a follow-up with the model, and falls back to the offline rule when that fails', async () => {
    const history = [
      { role: 'user' as const, content: 'How do I fail over?' },
      { role: 'assistant' as const, content: 'Promote [1].' },
    ];
    const searched: string[] = [];
    const search = async (query: string) => {
      searched.push(query);
      return result(passages);
    };
    const ok = await generateAnswer(
      { ...input, question: 'And how do I undo it?', history },
      deps(scripted(['x [1]']), search),
    );
    expect([ok.rewrite, ok.standaloneQuery, ok.rewriteReason]).toEqual(['llm', 'standalone question', null]);
    const broken = scripted(['x [1]'], undefined, new Error('503'));
    const fallback = await generateAnswer(
      { ...input, question: 'And how do I undo it?', history },
      deps(broken, search),
    );
    expect([fallback.rewrite, fallback.standaloneQuery, fallback.rewriteReason]).toEqual([
      'history',
      'How do I fail over? And how do I undo it?',
      'refers-back',
    ]);
    expect(fallback.warnings[0]).toMatch(/Rewriting the follow-up question failed \(503\)/);
    // The question alone first, then (it points back) with the earlier question.
    expect(searched).toEqual([
      'standalone question',
      'And how do I undo it?',
      'How do I fail over? And how do I undo it?',
    ]);
  });

  it('offline, searches a follow-up that names its own topic alone, and says so', async () => {
    const history = [
      { role: 'user' as const, content: 'How do I connect to Sentinel?' },
      { role: 'assistant' as const, content: 'Use sentinels [1].' },
    ];
    const searched: string[] = [];
    const retrieval: string[] = [];
    const outcome = await generateAnswer(
      { ...input, question: 'How do I make an option mandatory in Commander?', history },
      deps(null, async (query) => {
        searched.push(query);
        return result(passages);
      }),
      { retrieval: (stage) => retrieval.push(`${stage.rewrite}:${stage.rewriteReason}`) },
    );
    expect(searched).toEqual(['How do I make an option mandatory in Commander?']);
    expect([outcome.rewrite, outcome.rewriteReason, outcome.standaloneQuery]).toEqual([
      'none',
      'stands-alone',
      'How do I make an option mandatory in Commander?',
    ]);
    expect(retrieval).toEqual(['none:stands-alone']);
  });

  it('offline, cites the passage that holds each quote when the first quote is from passage 3', async () => {
    const ranked = [
      hit(1, 'Backups run nightly at two in the morning.'),
      hit(2, 'Logs are rotated every week by the agent.'),
      hit(3, 'Run pg_ctl promote on the standby to fail over the primary.'),
      hit(4, 'The standby accepts pg_ctl promote to fail over once it is up to date.'),
    ];
    const outcome = await generateAnswer(
      { question: 'How do I fail over to the standby with pg_ctl promote?', history: [], settings: {} },
      deps(null, async () => result(ranked)),
    );
    expect(outcome.generator).toBe('extractive');
    // Renumbered in citing order: the answer's [1] is passage 3, its [2] passage 4.
    expect(outcome.text).toContain('Run pg_ctl promote on the standby to fail over the primary. [1]');
    expect(outcome.citations.map((c) => [c.marker, c.chunkId])).toEqual([
      [1, 'chunk-3'],
      [2, 'chunk-4'],
    ]);
    // The stored passages carry the answer's numbers, still in retrieval order.
    expect(outcome.passages.map((p) => [p.chunkId, p.marker])).toEqual([
      ['chunk-1', 3],
      ['chunk-2', 4],
      ['chunk-3', 1],
      ['chunk-4', 2],
    ]);
    for (const citation of outcome.citations) {
      const quoted = outcome.text
        .split('\n\n')
        .find((paragraph) => paragraph.endsWith(`[${citation.marker}]`));
      const passage = ranked.find((h) => h.chunkId === citation.chunkId)!;
      expect(passage.text).toContain(quoted!.replace(/ \[\d+\]$/, ''));
    }
  });
});

describe('generateGeneralAnswer', () => {
  it('answers without passages: every marker and link is removed', async () => {
    const model = scripted(['Paris [1], see https://x.example.']);
    const outcome = await generateGeneralAnswer('Capital of France?', model);
    expect(outcome).toEqual(
      expect.objectContaining({
        text: 'Paris, see (link removed).',
        source: 'general-knowledge',
        citations: [],
        droppedMarkers: [1],
        promptVersion: 'general-v1',
      }),
    );
    expect(model.requests[0].messages.map((m) => m.content).join('\n')).not.toContain('<passage');
  });
});
