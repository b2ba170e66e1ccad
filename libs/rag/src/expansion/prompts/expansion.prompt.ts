import type { ChatMessage } from '../../ports/chat-model.port';

/**
 * Version of the expansion prompt. Change it with every edit of the wording: it is part of the
 * expander's modelId, so evaluation reports and traces say which prompt produced their variants.
 */
export const EXPANSION_PROMPT_VERSION = 'expansion-v1';

/** Asks for exactly `count` distinct rewrites of the query, as a JSON object {"queries": [...]}. */
export function expansionMessages(query: string, count: number): ChatMessage[] {
  const plural = count === 1 ? 'query' : 'queries';
  return [
    {
      role: 'system',
      content: [
        'You help a search engine find passages in a document collection.',
        `Rewrite the user's search query into exactly ${count} different search ${plural} that passages`,
        'answering it would match: use synonyms, spell out abbreviations, name the specific technical',
        'terms, entities or mechanisms involved, and vary the phrasing. Each one must stand on its own,',
        "keep the query's meaning and language, and must not answer the query or repeat it unchanged.",
        `Reply with only a JSON object, no other text: {"queries": [${Array.from(
          { length: count },
          (_, i) => `"query ${i + 1}"`,
        ).join(', ')}]}`,
      ].join(' '),
    },
    { role: 'user', content: `Search query: ${query}` },
  ];
}

/** Version of the line-per-rewrite prompt for small local models (part of the expander's modelId). */
export const EXPANSION_LINES_PROMPT_VERSION = 'expansion-lines-v1';

/**
 * Two worked exchanges shown before the query: a model of a few hundred million parameters copies the
 * form of an example far more reliably than it follows a description of a JSON object.
 */
const LINE_EXAMPLES: readonly { query: string; rewrites: readonly string[] }[] = [
  {
    query: 'vitamin D deficiency and risk of fractures in elderly people',
    rewrites: [
      'low vitamin D levels increase bone fracture risk in older adults',
      'hypovitaminosis D osteoporosis hip fracture incidence',
      'cholecalciferol supplementation and fall and fracture prevention in the elderly',
      'serum 25-hydroxyvitamin D and bone mineral density in aging',
      'vitamin D status as a predictor of osteoporotic fractures',
    ],
  },
  {
    query: 'how does aspirin prevent heart attacks',
    rewrites: [
      'aspirin inhibits platelet aggregation and lowers myocardial infarction risk',
      'acetylsalicylic acid cyclooxygenase COX-1 thromboxane A2 blockade',
      'low-dose aspirin for primary prevention of cardiovascular events',
      'antiplatelet therapy and coronary thrombosis',
      'effect of daily aspirin on heart attack incidence',
    ],
  },
];

/**
 * The expansion prompt for small local models: one rewrite per line, no numbering, after two example
 * exchanges (user turn, assistant turn) that show exactly that form. Asks for `count` rewrites (the
 * examples show up to five; a larger count still gets the instruction).
 */
export function expansionLinesMessages(query: string, count: number): ChatMessage[] {
  const plural = count === 1 ? 'query' : 'queries';
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: [
        `You rewrite search queries. Write ${count} different search ${plural} about the same topic,`,
        'one per line, with synonyms and technical terms. No numbering, no answer, no other text.',
      ].join(' '),
    },
  ];
  for (const example of LINE_EXAMPLES) {
    messages.push({ role: 'user', content: `Search query: ${example.query}` });
    messages.push({ role: 'assistant', content: example.rewrites.slice(0, Math.max(1, count)).join('\n') });
  }
  messages.push({ role: 'user', content: `Search query: ${query}` });
  return messages;
}
