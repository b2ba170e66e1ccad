import 'reflect-metadata';
import { runCommand, splitSuite, UsageError } from './cli-args';
import { runAdaptiveCli } from './eval-adaptive';
import { runAnswerabilityCli } from './eval-answerability';
import { runAnswersCli } from './eval-answers';
import { runConversationsCli } from './eval-conversations';
import { runRerankCli } from './eval-rerank';
import { EVAL_USAGE, runRetrievalCli } from './eval-retrieval';

/** `npm run eval`: the retrieval suite by default, another with --suite <name>. */
const SUITES: Record<string, (argv: string[]) => Promise<void>> = {
  retrieval: runRetrievalCli,
  answers: runAnswersCli,
  answerability: runAnswerabilityCli,
  rerank: runRerankCli,
  adaptive: runAdaptiveCli,
  conversations: runConversationsCli,
};

async function main(args: string[]): Promise<void> {
  const { suite, rest } = splitSuite(args);
  const run = Object.hasOwn(SUITES, suite) ? SUITES[suite] : undefined;
  if (!run)
    throw new UsageError(
      `--suite must be retrieval, answers, answerability, rerank, adaptive or conversations, got "${suite}"`,
    );
  await run(rest);
}

runCommand(main, EVAL_USAGE);
