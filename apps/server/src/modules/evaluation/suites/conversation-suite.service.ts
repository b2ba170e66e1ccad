import { Injectable } from '@nestjs/common';
import { passageHoldsQuote, searchRefused } from '@lumina/eval';
import type { AnswerabilitySource, ConversationCase, ConversationMeasure, SearchOutcome } from '@lumina/eval';
import { followUpEvidence, historyStandaloneQuery, searchFollowUp } from '@lumina/rag';
import type { ChunkingSettings, HistoryTurn, SearchResult } from '@lumina/rag';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SuiteProgress } from './suite-progress';

/**
 * The multi-turn suite: index a docs gold set, then for each conversation search its second question
 * alone, with the earlier question added, and the way the chat does (searchFollowUp, the chat's code),
 * at default settings. The gold passage is one holding the question's verbatim quote.
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
      const alone = await ask(question);
      const withContext = await ask(historyStandaloneQuery(history, question, 1));
      const chat = await searchFollowUp(question, history, ask);
      measures.push({
        id: item.id,
        kind: item.kind,
        inScope: gold.inScope,
        evidence: followUpEvidence(question, alone),
        alone: outcome(alone),
        withContext: outcome(withContext),
        chat: { ...outcome(chat.result), reason: chat.reason, query: chat.query },
      });
      report(measures.length, cases.length);
    }
    return measures;
  }
}
