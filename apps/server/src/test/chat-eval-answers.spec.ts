import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswersReport } from '@lumina/eval';
import { splitSuite } from '../cli/cli-args';
import { runAnswersCli } from '../cli/eval-answers';
import type { Json } from './helpers/http';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import type { RecordedRequest } from '@lumina/testing-llm';
import { testEnv } from './helpers/test-env';

/** `npm run eval -- --suite answers` on a tiny BEIR fixture, answers and judge from the scripted server. */
describe('answers evaluation (tiny BEIR fixture, scripted answer and judge models)', () => {
  let llm: ScriptedOpenAiServer;
  let dir: string;
  let dataset: string;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  const promptOf = (request: RecordedRequest) =>
    (request.body.messages as Json[]).map((m) => m.content as string).join('\n');
  const isJudge = (request: RecordedRequest) => request.body.model === 'judge-model';
  const isAnswer = (request: RecordedRequest) => request.body.stream === true;

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    dir = mkdtempSync(join(tmpdir(), 'answers-eval-'));
    dataset = join(dir, 'tiny');
    mkdirSync(join(dataset, 'qrels'), { recursive: true });
    const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
    writeFileSync(
      join(dataset, 'corpus.jsonl'),
      jsonl([
        {
          _id: 'd1',
          title: 'Failover',
          text: 'Promote the standby replica with pg_ctl promote during a failover.',
        },
        {
          _id: 'd2',
          title: 'Backups',
          text: 'Nightly base backups run at 02:00 UTC and are kept for seven days.',
        },
        { _id: 'd3', title: 'Cache', text: 'Redis holds the job queues and the rate-limit counters.' },
      ]),
    );
    writeFileSync(
      join(dataset, 'queries.jsonl'),
      jsonl([
        { _id: 'q1', text: 'How do I promote the standby replica?' },
        { _id: 'q2', text: 'When do nightly backups run?' },
      ]),
    );
    writeFileSync(join(dataset, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n');
    writeFileSync(
      join(dataset, 'out-of-scope.jsonl'),
      jsonl([{ _id: 'o1', text: 'What is the capital of France?' }]),
    );
  });

  beforeEach(() => {
    lines.length = 0;
    llm.reset();
    llm.on((request) => {
      if (isAnswer(request)) {
        return promptOf(request).includes('standby replica?')
          ? { stream: ['Promote the standby ', 'with pg_ctl promote [1].'] }
          : { stream: ['They run at 02:00 UTC [1] and on Sundays [7].'] };
      }
      if (isJudge(request)) {
        const faithful = promptOf(request).includes('Promote the standby with pg_ctl promote [1].');
        return completion(
          JSON.stringify({
            faithful,
            citations_valid: true,
            unsupported_claims: faithful ? [] : ['on Sundays'],
            reason: faithful ? 'supported' : 'Sundays is not in the passage',
          }),
          'judge-model',
        );
      }
      return null;
    });
  });

  afterAll(async () => {
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => testEnv({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'answer-model', LLM_MAX_RETRIES: '0' });
  const run = (args: string[]) =>
    runAnswersCli(['--dataset', dataset, '--db-dir', 'memory://', '--concurrency', '1', ...args], {
      env: env(),
      log,
      quiet: true,
    });

  it('answers with the chat code, grades with the judge and reports rates with Wilson intervals', async () => {
    const out = join(dir, 'report.json');
    await run(['--judge-model', 'judge-model', '--json', out]);
    const report = JSON.parse(readFileSync(out, 'utf8')) as AnswersReport;

    expect(report).toEqual(
      expect.objectContaining({
        suite: 'answers',
        dataset: 'tiny',
        generator: 'llm',
        answerModel: 'answer-model',
        answerPromptVersion: 'answer-v1',
        judge: { model: 'judge-model', promptVersion: 'judge-v1' },
        questions: { inScope: 2, outOfScope: 1 },
      }),
    );
    expect(report.metrics.faithfulness).toEqual(expect.objectContaining({ successes: 1, n: 2, rate: 0.5 }));
    expect(report.metrics.faithfulness.low).toBeCloseTo(0.0945, 3);
    expect(report.metrics.faithfulness.high).toBeCloseTo(0.9055, 3);
    // q2's invented marker [7] was dropped: its citations do not count as valid.
    expect(report.metrics.citationValidity).toEqual(expect.objectContaining({ successes: 1, n: 2 }));
    expect(report.metrics.inScopeAnswered).toEqual(expect.objectContaining({ successes: 2, n: 2 }));
    expect(report.metrics.outOfScopeRefused).toEqual(
      expect.objectContaining({ successes: 1, n: 1, high: 1 }),
    );
    expect(report.metrics.refusalCorrectness).toEqual(expect.objectContaining({ successes: 3, n: 3 }));
    expect(report.metrics.citesRelevantDocument).toEqual(expect.objectContaining({ successes: 2, n: 2 }));
    expect(report.counts).toEqual({ failed: 0, judgeErrors: 0, withDroppedMarkers: 1, uncited: 0 });

    const [q1, q2, o1] = report.perQuestion;
    expect(q1).toEqual(
      expect.objectContaining({
        id: 'q1',
        answer: 'Promote the standby with pg_ctl promote [1].',
        notFound: false,
      }),
    );
    expect(q1.citations).toEqual([expect.objectContaining({ marker: 1, documentId: 'd1' })]);
    expect(q2.droppedMarkers).toEqual([7]);
    expect(q2.judge).toEqual(expect.objectContaining({ faithful: false, unsupportedClaims: ['on Sundays'] }));
    expect(o1).toEqual(
      expect.objectContaining({ id: 'o1', inScope: false, notFound: true, generator: 'none' }),
    );

    // Two answers streamed (the out-of-scope question found nothing: no LLM), two judged.
    expect(llm.requests.filter(isAnswer)).toHaveLength(2);
    const judged = llm.requests.filter(isJudge);
    expect(judged).toHaveLength(2);
    expect(judged[0].body.response_format).toEqual({ type: 'json_object' });
    expect(promptOf(judged[0])).toContain('<passage number="1" title="Failover">');
    expect(promptOf(judged[0])).not.toContain('Nightly base backups');

    const text = lines.join('\n');
    expect(text).toMatch(/judge: judge-model, judge-v1/);
    expect(text).toMatch(/faithfulness\s+0\.500\s+2\s+\[0\.095, 0\.905\]/);
  });

  // The next two reuse the first test's report as their baseline.
  it('refuses a baseline judged by another judge model before calling any model', async () => {
    const out = join(dir, 'report.json');
    await expect(run(['--judge-model', 'other-judge', '--baseline', out])).rejects.toThrow(
      /refusing to compare: the runs were judged differently \(judge-model with judge-v1 vs other-judge with judge-v1\)/,
    );
    expect(llm.requests).toHaveLength(0);
  });

  it('compares against a baseline judged the same way', async () => {
    const out = join(dir, 'report.json');
    await run(['--judge-model', 'judge-model', '--baseline', out]);
    const text = lines.join('\n');
    expect(text).toMatch(/3 paired questions; exact McNemar/);
    expect(text).toMatch(/faithfulness\s+0\.500\s+0\.500\s+\+0\.000/);
  });

  it('takes --suite out of the arguments for the eval command', () => {
    expect(splitSuite(['--suite', 'answers', '--dataset', 'x'])).toEqual({
      suite: 'answers',
      rest: ['--dataset', 'x'],
    });
    expect(splitSuite(['--suite=answers'])).toEqual({ suite: 'answers', rest: [] });
    expect(splitSuite(['--dataset', 'x'])).toEqual({ suite: 'retrieval', rest: ['--dataset', 'x'] });
  });
});
