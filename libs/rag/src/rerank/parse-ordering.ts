import { cleanModelOutput, excerpt, extractJson } from '../expansion/model-output';

/**
 * The passage order in a model's answer to the listwise prompt, as 0-based indexes: a JSON array of
 * numbers (or an object holding one), or numbers in text ("[2] > [1] > [3]", "2, 1, 3"). Numbers out
 * of 1..count and repeats are skipped; passages the model left out follow in their given order.
 * Throws when the answer names no passage at all.
 */
export function parseOrdering(output: string, count: number): number[] {
  const text = cleanModelOutput(output);
  const named = numbersOf(extractJson(text)) ?? (text.match(/\d+/g) ?? []).map(Number);
  const order: number[] = [];
  const seen = new Set<number>();
  for (const number of named) {
    if (!Number.isInteger(number) || number < 1 || number > count || seen.has(number)) continue;
    seen.add(number);
    order.push(number - 1);
  }
  if (order.length === 0) {
    throw new Error(`the model's ranking names none of the ${count} passages: ${excerpt(output)}`);
  }
  for (let i = 0; i < count; i++) if (!seen.has(i + 1)) order.push(i);
  return order;
}

function numbersOf(value: unknown): number[] | undefined {
  if (Array.isArray(value)) {
    const numbers = value.map((item) =>
      typeof item === 'string' ? Number(item.replace(/[[\]\s]/g, '')) : item,
    );
    return numbers.every((n) => typeof n === 'number') && numbers.length ? (numbers as number[]) : undefined;
  }
  if (value && typeof value === 'object') {
    for (const item of Object.values(value as Record<string, unknown>)) {
      const numbers = numbersOf(item);
      if (numbers) return numbers;
    }
  }
  return undefined;
}
