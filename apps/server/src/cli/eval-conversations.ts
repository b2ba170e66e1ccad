import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bestRule,
  candidateRules,
  chatFigures,
  formatConversationFigures,
  formatRate,
  ruleFigures,
  switchAnswersUnchanged,
} from '@lumina/eval';
import type { ConversationCase } from '@lumina/eval';
import { DEFAULT_FOLLOW_UP_RULE } from '@lumina/rag';
import type { SearchSettings } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { withCoreContext } from '../core/core-context';
import { ConversationSuite } from '../modules/evaluation/suites/conversation-suite.service';
import { loadDocsGold } from './answerability/docs-gold';
import { flags, parseFlags, rankerOf, UsageError } from './cli-args';
import { envChunking } from '../config/env-chunking';
import { writeReport } from './command-context';
import { STDERR_PROGRESS } from './progress';

export const CONVERSATIONS_USAGE = `usage:
  npm run eval -- --suite conversations --docs <docs-gold-dir> [--split test|train|all]
                  [--json <report.json>] [--db-dir .data/eval/conversations] [--ranker bm25|dense|hybrid]

The multi-turn gold set (<docs-gold-dir>/conversations.jsonl): topic switches (an unrelated question
asked second) and follow-ups that need the earlier turn. Each second question is searched alone, with the
earlier question added, and the way the chat does offline (alone first; a question that points back is
searched with the earlier question too, and the follow-up rule picks which search leads). Prints, for the
chat and for always / never adding the earlier turn: switches keeping the top passage they get alone,
out-of-scope switches keeping their refusal, follow-ups reaching a passage that holds the gold quote; then
the best rule on this split (choose it on train). Default settings; --ranker changes the ranker.`;

const FLAGS = flags({
  string: 'docs json ranker',
  boolean: 'help',
  defaults: { split: 'test', 'db-dir': '.data/eval/conversations' },
});

export async function runConversationsCli(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(CONVERSATIONS_USAGE);
  if (!values.docs) throw new UsageError('--docs is required: a docs gold set with conversations.jsonl');
  const split = values.split;
  if (!['test', 'train', 'all'].includes(split)) throw new UsageError('--split must be test, train or all');
  const env = loadEnv();
  const cases = readFileSync(join(values.docs, 'conversations.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ConversationCase)
    .filter((c) => split === 'all' || c.split === split);
  const source = loadDocsGold(values.docs, 'all');
  const chunking = envChunking(env);
  const settings: Partial<SearchSettings> =
    values.ranker === undefined ? {} : { ranker: rankerOf(values.ranker) };
  const dbDir = `${values['db-dir']}/${source.name}-${chunking.maxChars}-${chunking.overlapChars}`;
  const own = { ...env, DATABASE_URL: undefined, PGLITE_DATA_DIR: dbDir, PGLITE_PORT: 0 };
  const measures = await withCoreContext(own, (app) =>
    app.get(ConversationSuite).run(source, cases, chunking, STDERR_PROGRESS, settings),
  );
  console.log(`docs gold conversations, ${split}: ${cases.length}`);
  console.log(
    formatConversationFigures(
      `the chat (rule ${JSON.stringify(DEFAULT_FOLLOW_UP_RULE)})`,
      chatFigures(measures),
    ),
  );
  console.log(`  switch answers as asked alone         ${formatRate(switchAnswersUnchanged(measures))}`);
  console.log(
    formatConversationFigures('always adding the earlier question (before)', ruleFigures(measures, 'always')),
  );
  console.log(formatConversationFigures('never adding it', ruleFigures(measures, 'never')));
  const best = bestRule(measures, candidateRules(DEFAULT_FOLLOW_UP_RULE));
  if (best)
    console.log(
      formatConversationFigures(`best rule on this split ${JSON.stringify(best.rule)}`, best.figures),
    );
  else console.log('no rule keeps 95% of the switches');
  if (values.json) writeReport(values.json, measures);
}
