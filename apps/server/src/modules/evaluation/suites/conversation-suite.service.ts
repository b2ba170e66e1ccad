import { Injectable } from '@nestjs/common';
import { candidateRules, passageHoldsQuote, ruleKey } from '@lumina/eval';
import type {
  AnswerabilitySource,
  ConversationCase,
  ConversationMeasure,
  RuleOutcome,
  SearchOutcome,
} from '@lumina/eval';
import {
  DEFAULT_FOLLOW_UP_RULE,
  citedWordsQuery,
  combineFollowUp,
  generateAnswer,
  historyStandaloneQuery,
  refusesBeforeWriting,
  searchFollowUp,
} from '@lumina/rag';
import type { AnswerOutcome, ChunkingSettings, HistoryTurn, SearchResult } from '@lumina/rag';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import type { SearchSettings } from '@lumina/shared';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import { searchReadsVectors } from './search-reads-vectors';
import type { SuiteProgress } from './suite-progress';

/**
 * The multi-turn suite: index a docs gold set, then for each conversation answer its earlier question the
 * way the offline chat does (generateAnswer, no language model) and keep that answer as the chat keeps it
 * (its text and its cited passages), then search the second question alone, with the earlier question
 * added, the way the chat does (searchFollowUp, the chat's code), and as each candidate follow-up rule
 * would combine the searches (combineFollowUp), at default settings (or `settings` over them). The gold
 * passage is one holding the question's verbatim quote.
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
    settings: Partial<SearchSettings> = {},
  ): Promise<ConversationMeasure[]> {
    const search = this.searches.create();
    const embedder = searchReadsVectors(settings) ? search.embedder : null;
    await this.indexer.index(source, source.name, chunking, embedder, progress.stage, source.format);
    const ask = (query: string) => search.search(query, settings);
    const deps = { search: (query: string) => ask(query), chatModel: null, embedder: search.embedder };
    const questions = new Map(source.questions.map((q) => [q.id, q]));
    const rules = candidateRules(DEFAULT_FOLLOW_UP_RULE);
    const measures: ConversationMeasure[] = [];
    const report = progress.stage(`asking ${cases.length} conversations`);
    for (const item of cases) {
      const gold = questions.get(item.question);
      if (!gold) throw new Error(`conversation ${item.id}: unknown question ${item.question}`);
      const [earlier, question] = item.turns;
      const first = await generateAnswer({ question: earlier, history: [], settings }, deps);
      const history: HistoryTurn[] = [
        { role: 'user', content: earlier },
        { role: 'assistant', content: first.text, citedPassages: citedPassages(first) },
      ];
      const outcome = (result: SearchResult): SearchOutcome => {
        const rank = gold.quote
          ? result.results.findIndex((hit) => passageHoldsQuote(hit.text, gold.quote!))
          : -1;
        return {
          top: result.results[0]?.chunkId ?? null,
          refused: refusesBeforeWriting(result),
          goldRank: rank >= 0 ? rank + 1 : null,
        };
      };
      const chat = await searchFollowUp(question, history, ask);
      // The chat's whole answer path (the search above, then the answer), against the question asked alone.
      const [answered, answeredAlone] = await Promise.all([
        generateAnswer({ question, history, settings }, deps),
        generateAnswer({ question, history: [], settings }, deps),
      ]);
      const alone = chat.alone;
      const withContext =
        chat.withEarlier ??
        (await ask(historyStandaloneQuery(history, question, DEFAULT_FOLLOW_UP_RULE.turns)));
      // The cited-words search of each count the rules compare (a question that points back only).
      const cited = new Map<number, SearchResult | null>([
        [DEFAULT_FOLLOW_UP_RULE.citedTerms, chat.withCited],
      ]);
      const withCited = async (count: number): Promise<SearchResult | null> => {
        if (!cited.has(count)) {
          const query = citedWordsQuery(history, question, count);
          cited.set(count, query === null ? null : await ask(query));
        }
        return cited.get(count)!;
      };
      const byRule: Record<string, RuleOutcome> = {};
      for (const rule of rules) {
        const combined = chat.evidence.refersBack
          ? combineFollowUp(alone, withContext, rule, await withCited(rule.citedTerms))
          : null;
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
        withCited: chat.withCited ? outcome(chat.withCited) : null,
        rules: byRule,
        chat: { ...outcome(chat.result), reason: chat.reason, query: chat.query },
        answerUnchanged: answered.text === answeredAlone.text,
      });
      report(measures.length, cases.length);
    }
    return measures;
  }
}

/** The text of the passages an answer cited, in citing order: what the chat keeps with a stored answer. */
function citedPassages(answer: AnswerOutcome): string[] {
  const text = new Map(answer.passages.map((passage) => [passage.chunkId, passage.text]));
  return answer.citations.flatMap((citation) => text.get(citation.chunkId) ?? []);
}
