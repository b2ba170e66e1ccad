/**
 * What a chat model wraps around its answer, removed: reasoning blocks (<think>…</think>, as
 * DeepSeek-R1 and Qwen3 emit them, also an unterminated one at the start) and a Markdown code fence
 * around the whole answer.
 */
export function cleanModelOutput(output: string): string {
  let text = output.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  // A reasoning block cut off by the token limit leaves nothing usable after it.
  text = text.replace(/^\s*<(think|thinking|reasoning)>[\s\S]*$/i, '');
  return (unfence(text) ?? text).trim();
}

/**
 * The body of a Markdown code fence that is the whole text (```lang, a line break, the body, ```), or
 * null. Read by position: the equivalent pattern's lazy body before `\n?```\s*$` is quadratic on a
 * long run of line breaks.
 */
function unfence(text: string): string | null {
  const trimmed = text.trim();
  const firstBreak = trimmed.indexOf('\n');
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || firstBreak < 0) return null;
  if (firstBreak > trimmed.length - 3 || !/^[\w-]*\s*$/.test(trimmed.slice(3, firstBreak))) return null;
  return trimmed.slice(firstBreak + 1, trimmed.length - 3);
}

/** The first `max` characters of a model's output, on one line, quoted: for error messages. */
export function excerpt(output: string, max = 120): string {
  const line = output.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
}

/**
 * The JSON value in a model's answer: the whole text, or failing that the span from the first
 * `[` or `{` to the last matching closer (models add sentences around JSON). Undefined if none parses.
 */
export function extractJson(text: string): unknown {
  const attempts = [text];
  for (const [open, close] of [
    ['[', ']'],
    ['{', '}'],
  ] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start >= 0 && end > start) attempts.push(text.slice(start, end + 1));
  }
  for (const candidate of attempts) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next span
    }
  }
  return undefined;
}
