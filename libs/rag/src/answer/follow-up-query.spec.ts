import type { AnswerabilityVerdict } from '@lumina/shared';
import { searchHit, searchResult } from '../testing';
import type { SearchResult } from '../pipeline/search-result';
import {
  DEFAULT_FOLLOW_UP_RULE,
  citedWordsQuery,
  combineFollowUp,
  interleaveLeading,
  refersBack,
  searchFollowUp,
} from './follow-up-query';

const verdict = (score: number): AnswerabilityVerdict => ({
  modelVersion: 'm',
  score,
  threshold: 0.2,
  answerable: score >= 0.2,
  features: {},
  contributions: {},
  terms: [],
});

/** A search whose passages are these chunk ids (of document `doc`), at this P(answerable). */
const found = (ids: string[], score: number | null, doc = 'd'): SearchResult =>
  searchResult(
    ids.map((chunkId) => searchHit({ chunkId, documentId: doc })),
    { answerability: score === null ? null : verdict(score) },
  );

const ids = (result: SearchResult) => result.results.map((hit) => hit.chunkId);

describe('follow-up references', () => {
  it('reads pronouns and references that point back, not "there", "one" or "the same"', () => {
    for (const question of [
      'is there an eslint plugin for pino',
      'tag every line from one module',
      'set the same key',
    ])
      expect(refersBack(question)).toBe(false);
    for (const question of [
      'can it go down?',
      'are they slow?',
      'which of those is faster',
      'and the second one?',
      'does that work in the browser too?',
    ])
      expect(refersBack(question)).toBe(true);
  });
});

describe('combining a follow-up searched alone and with the earlier question', () => {
  it('keeps the leading passages on top and fills the rest from the other searches in turn, each once', () => {
    const hit = (chunkId: string) => ({ chunkId });
    const chunks = (list: readonly { chunkId: string }[]) => list.map((h) => h.chunkId);
    const merged = interleaveLeading(
      ['a', 'b', 'c', 'd', 'e', 'f'].map(hit),
      [['x', 'b', 'y', 'z'].map(hit)],
      3,
    );
    expect(chunks(merged)).toEqual(['a', 'b', 'c', 'x', 'y', 'z']);
    // Short lists: as many as the longest one holds, the leading list's rest last.
    expect(chunks(interleaveLeading(['a', 'b', 'c', 'd'].map(hit), [['x'].map(hit)], 2))).toEqual([
      'a',
      'b',
      'x',
      'c',
    ]);
    expect(chunks(interleaveLeading([], [['x', 'y'].map(hit)], 3))).toEqual(['x', 'y']);
    // Two filling lists take turns, each with its next passage not already taken.
    expect(
      chunks(
        interleaveLeading(
          ['a', 'b', 'c', 'd', 'e', 'f'].map(hit),
          [['a', 'p', 'q', 'r'].map(hit), ['p', 'x', 'y'].map(hit)],
          3,
        ),
      ),
    ).toEqual(['a', 'b', 'c', 'p', 'x', 'q']);
  });

  it('adds the words that best characterise the earlier answer’s cited passages', () => {
    const history = [
      { role: 'user' as const, content: 'how does helmet handle HSTS?' },
      {
        role: 'assistant' as const,
        content: 'It sets the header [1].',
        citedPassages: [
          'Strict-Transport-Security: max-age=31536000; includeSubDomains. The Strict-Transport-Security ' +
            'header tells browsers to prefer HTTPS; includeSubDomains covers subdomains.',
        ],
      },
    ];
    expect(citedWordsQuery(history, "what's the default header it sends?", 2)).toBe(
      "what's the default header it sends? includesubdomains strict-transport-security",
    );
    // No cited passages (a refusal, or an answer stored before they were kept), or no words asked: none.
    expect(citedWordsQuery(history.slice(0, 1), 'and it?', 2)).toBeNull();
    expect(
      citedWordsQuery([...history, { role: 'assistant', content: 'Not found.' }], 'and it?', 2),
    ).toBeNull();
    expect(citedWordsQuery(history, 'and it?', 0)).toBeNull();
  });

  it('lets the search with the earlier question lead only when it is clearly more answerable', () => {
    const alone = found(['a1', 'a2', 'a3', 'a4', 'a5', 'a6'], 0.2);
    const withEarlier = found(['e1', 'e2', 'e3', 'e4', 'e5', 'e6'], 0.7, 'earlier');
    const leads = combineFollowUp(alone, withEarlier);
    expect(leads.reason).toBe('refers-back');
    expect(ids(leads.result)).toEqual(['e1', 'e2', 'a1', 'a2', 'a3', 'a4']);
    // The refusal is decided on the leading search's own evidence.
    expect(leads.result.answerability?.score).toBe(0.7);

    // A topic switch with a dummy "it" that its own search answers as well: its top passage and its
    // verdict stay; the earlier question's passages only fill the lower ranks.
    const own = combineFollowUp(found(['a1', 'a2', 'a3', 'a4'], 0.8), found(['e1', 'e2'], 0.84));
    expect(own.reason).toBe('alone-leads');
    expect(ids(own.result)).toEqual(['a1', 'a2', 'e1', 'e2']);
    expect(own.result.answerability?.score).toBe(0.8);

    // An out-of-scope question stays refused when the earlier question does not make it answerable.
    const refused = combineFollowUp(
      found(['a1'], 0.05, 'a'),
      found(['e1'], 0.08, 'earlier'),
      DEFAULT_FOLLOW_UP_RULE,
    );
    expect([refused.reason, refused.result.answerability?.answerable]).toEqual(['alone-leads', false]);

    // Without an answerability model, a reference is resolved to the earlier question.
    expect(combineFollowUp(found(['a1'], null), found(['e1'], null)).reason).toBe('refers-back');
  });

  it('fills under the leading passages with the cited-words search first, and never lets it lead', () => {
    const alone = found(['a1', 'a2', 'a3', 'a4', 'a5', 'a6'], 0.5);
    const withEarlier = found(['e1', 'e2', 'e3', 'e4', 'e5', 'e6'], 0.52, 'earlier');
    // Far more answerable: its added words come from the documents, so it still only fills in.
    const withCited = found(['c1', 'a1', 'c2', 'c3'], 0.99, 'cited');
    const own = combineFollowUp(alone, withEarlier, DEFAULT_FOLLOW_UP_RULE, withCited);
    expect(own.reason).toBe('alone-leads');
    expect(ids(own.result)).toEqual(['a1', 'a2', 'c1', 'e1', 'c2', 'e2']);
    expect(own.result.answerability?.score).toBe(0.5);

    const earlier = combineFollowUp(
      alone,
      found(['e1', 'e2', 'e3', 'e4'], 0.9),
      DEFAULT_FOLLOW_UP_RULE,
      withCited,
    );
    expect(earlier.reason).toBe('refers-back');
    expect(ids(earlier.result)).toEqual(['e1', 'e2', 'c1', 'a1', 'c2', 'a2']);
  });

  it('searches the question alone first, and with the earlier question only when it points back', async () => {
    const history = [
      { role: 'user' as const, content: 'How do pino transports work?' },
      { role: 'assistant' as const, content: 'They run in a worker [1].' },
    ];
    const searched: string[] = [];
    const search = async (query: string) => {
      searched.push(query);
      return query.startsWith('can I') ? found(['a1', 'a2'], 0.3) : found(['e1', 'e2'], 0.9);
    };
    const followUp = await searchFollowUp('can I write one in TypeScript, and is it fast?', history, search);
    expect(followUp.reason).toBe('refers-back');
    const glued = 'How do pino transports work? can I write one in TypeScript, and is it fast?';
    expect([followUp.query, followUp.contextQuery]).toEqual([glued, glued]);
    expect(followUp.evidence).toEqual({ refersBack: true, answerability: 0.3, withEarlier: 0.9 });
    expect(ids(followUp.result)).toEqual(['e1', 'e2']);
    // The earlier answer is not known to have cited anything: no third search.
    expect([followUp.citedQuery, followUp.withCited]).toEqual([null, null]);
    expect(searched).toEqual(['can I write one in TypeScript, and is it fast?', glued]);

    searched.length = 0;
    const cited = [
      history[0]!,
      {
        ...history[1]!,
        citedPassages: [
          'A transport runs in a worker thread. Each transport is a module, and a transport can be async.',
        ],
      },
    ];
    const withCited = await searchFollowUp('is it fast?', cited, search);
    expect(withCited.citedQuery).toBe('is it fast? transport async');
    expect(searched).toEqual([
      'is it fast?',
      'How do pino transports work? is it fast?',
      'is it fast? transport async',
    ]);
    expect(withCited.withCited).not.toBeNull();

    searched.length = 0;
    const alone = await searchFollowUp('Which headers does helmet set?', cited, search);
    expect([alone.reason, alone.query, alone.contextQuery, searched]).toEqual([
      'stands-alone',
      'Which headers does helmet set?',
      null,
      ['Which headers does helmet set?'],
    ]);
  });
});
