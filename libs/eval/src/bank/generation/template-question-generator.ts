/** A passage to write a question from. */
export interface PassageForQuestion {
  title: string;
  headingPath: string[];
  text: string;
}

export interface TemplateQuestion {
  question: string;
  expectedAnswer: string;
  /** 'about': "What does <heading or title> say about <phrase>?"; 'cloze': fill in the blank. */
  style: 'about' | 'cloze';
}

export const TEMPLATE_GENERATOR_VERSION = 'template-v1';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how if in into is it its ' +
    'may might more most must no not of on or our should so such than that the their them then there these they ' +
    'this those through to under until was we were what when where which while who whom why will with would you ' +
    'your also after before about above between both each few other only own same some very just over any all ' +
    'once here out up down off again further because during against nor too any new one two three first second'
  ).split(' '),
);

/**
 * The offline question writer: deterministic, no model. From the passage's first informative sentence
 * it takes a key phrase (the longest run of up to three content words not already in the heading) and
 * asks either what the heading (or title) says about that phrase, or for the phrase as a cloze blank.
 * `variant` alternates the two styles. Returns null when the passage has no usable sentence.
 */
export function generateTemplateQuestion(
  passage: PassageForQuestion,
  variant: number,
): TemplateQuestion | null {
  const subject = (passage.headingPath.at(-1) ?? passage.title).trim();
  const subjectWords = new Set(words(subject).map((w) => w.toLowerCase()));
  for (const sentence of sentences(passage.text)) {
    const tokens = words(sentence);
    if (tokens.length < 6 || tokens.length > 80) continue;
    const phrase = keyPhrase(tokens, subjectWords);
    if (!phrase) continue;
    if (subject && variant % 2 === 0) {
      return {
        question: `What does ${subject} say about ${phrase}?`,
        expectedAnswer: sentence,
        style: 'about',
      };
    }
    const blank = sentence.replace(phrase, '_____');
    if (blank === sentence) continue;
    return { question: `Fill in the blank: ${blank}`, expectedAnswer: phrase, style: 'cloze' };
  }
  return null;
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

function keyPhrase(tokens: string[], exclude: Set<string>): string | null {
  const content = (token: string) =>
    token.length >= 4 &&
    !STOP_WORDS.has(token.toLowerCase()) &&
    !exclude.has(token.toLowerCase()) &&
    !/^\d+$/.test(token);
  let best: string[] = [];
  let run: string[] = [];
  for (const token of [...tokens, '']) {
    if (token && content(token) && run.length < 3) {
      run.push(token);
      continue;
    }
    if (run.length > best.length) best = run;
    run = token && content(token) ? [token] : [];
  }
  return best.length ? best.join(' ') : null;
}
