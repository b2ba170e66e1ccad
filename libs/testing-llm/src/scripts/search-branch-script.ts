import { completion } from '../replies';
import type { TokenUsage } from '../replies';
import type { ScriptHandler } from '../scripted-openai-server';

const SUFFIXES = ['evidence', 'mechanism', 'clinical study results', 'risk factors', 'outcomes', 'review'];
const USAGE: TokenUsage = { prompt_tokens: 50, completion_tokens: 100, total_tokens: 150 };

/**
 * The benchmarks' model: query variants (as JSON) for the expansion prompt and a ~100-word passage for
 * anything else (HyDE, an answer), both made from the query; a stream comes a few words per chunk.
 */
export const searchBranchScript: ScriptHandler = (request) => {
  if (!request.path.endsWith('/chat/completions')) return null;
  const messages = (request.body.messages as { content: string }[] | undefined) ?? [];
  const text = answer(messages);
  if (request.body.stream) {
    const words = text.split(/(?<= )/);
    const stream: string[] = [];
    for (let i = 0; i < words.length; i += 8) stream.push(words.slice(i, i + 8).join(''));
    return { stream, usage: USAGE };
  }
  return completion(text, String(request.body.model ?? 'scripted'), USAGE);
};

function answer(messages: { content: string }[]): string {
  const system = messages[0]?.content ?? '';
  const user = messages[messages.length - 1]?.content ?? '';
  const query = user.replace(/^(Search query|Question):\s*/, '');
  const count = Number(/exactly (\d+) different/.exec(system)?.[1] ?? 0);
  if (count > 0) {
    return JSON.stringify({ queries: SUFFIXES.slice(0, count).map((suffix) => `${query} ${suffix}`) });
  }
  return (
    `${query}. Several studies have examined this question in cohorts and controlled trials. ` +
    `The findings indicate that ${query.toLowerCase()} depends on the underlying mechanism, the ` +
    'population studied and the measured outcome. In a randomized trial, patients receiving the ' +
    'intervention showed a significant change compared with controls, and a meta-analysis of ' +
    'observational data reported a consistent association after adjustment for confounders. ' +
    'Experimental work in cell lines and animal models supports a causal role.'
  );
}
