import { Injectable } from '@nestjs/common';
import { candidateRules, passageHoldsQuote, ruleKey, searchRefused } from '@lumina/eval';
import type {
  AnswerabilitySource,
  ConversationCase,
  ConversationMeasure,
  RuleOutcome,
  SearchOutcome,
} from '@lumina/eval';
import { DEFAULT_FOLLOW_UP_RULE, combineFollowUp, historyStandaloneQuery, searchFollowUp } from '@lumina/rag';
import type { ChunkingSettings, HistoryTurn, SearchResult } from '@lumina/rag';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SuiteProgress } from './suite-progress';

/**
 * The multi-turn suite: index a docs gold set, then for each conversation search its second question
 * alone, with the earlier question added, the way the chat does (searchFollowUp, the chat's code), and
 * as each candidate follow-up rule would combine the two searches (combineFollowUp), at default settings.
 * The gold passage is one holding the question's verbatim quote.
 */
@Injectable()
export class ConversationSuite {
  constructor(
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async run(
    source: AnswerabilitySource,
    cases: readonly ConversationCase[],
    chunking: ChunkingSettings,
    progress: SuiteProgress,
  ): Promise<ConversationMeasure[]> {
    await this.indexer.index(source, source.name, chunking, null, progress.stage, source.format);
    const search = this.searches.create();
    const ask = (query: string) => search.search(query, {});
    const questions = new Map(source.questions.map((q) => [q.id, q]));
    const rules = candidateRules(DEFAULT_FOLLOW_UP_RULE);
    const measures: ConversationMeasure[] = [];
    const report = progress.stage(`asking ${cases.length} conversations`);
    for (const item of cases) {
      const gold = questions.get(item.question);
      if (!gold) throw new Error(`conversation ${item.id}: unknown question ${item.question}`);
      const [earlier, question] = item.turns;
      const history: HistoryTurn[] = [
        { role: 'user', content: earlier },
        { role: 'assistant', content: '' },
      ];
      const outcome = (result: SearchResult): SearchOutcome => {
        const rank = gold.quote
          ? result.results.findIndex((hit) => passageHoldsQuote(hit.text, gold.quote!))
          : -1;
        return {
          top: result.results[0]?.chunkId ?? null,
          refused: searchRefused(result),
          goldRank: rank >= 0 ? rank + 1 : null,
        };
      };
      const chat = await searchFollowUp(question, history, ask);
      const alone = chat.alone;
      const withContext =
        chat.withEarlier ??
        (await ask(historyStandaloneQuery(history, question, DEFAULT_FOLLOW_UP_RULE.turns)));
      const byRule: Record<string, RuleOutcome> = {};
      for (const rule of rules) {
        const combined = chat.evidence.refersBack ? combineFollowUp(alone, withContext, rule) : null;
        byRule[ruleKey(rule)] = combined
          ? { ...outcome(combined.result), reason: combined.reason }
          : { ...outcome(alone), reason: 'stands-alone' };
      }
      measures.push({
        id: item.id,
        kind: item.kind,
        inScope: gold.inScope,
        evidence: { ...chat.evidence, withEarlier: withContext.answerability?.score ?? null },
        alone: outcome(alone),
        withContext: outcome(withContext),
        rules: byRule,
        chat: { ...outcome(chat.result), reason: chat.reason, query: chat.query },
      });
      report(measures.length, cases.length);
    }
    return measures;
  }
}
