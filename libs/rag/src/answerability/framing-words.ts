/**
 * The words of a question that ask for a form of answer rather than name what it is about: "Explain
 * the laptop policy step by step", "Bitte beschreibe …", "请详细解释…". The answerability evidence is read
 * without them, because a word the corpus never uses weighs the most there, and "explain" or "step by
 * step" in a handbook's question would otherwise count as the question's most salient, unknown words.
 *
 * Conservative on purpose: instruction verbs only where an instruction starts (after a polite opening),
 * fixed phrases anywhere, never a word that documentation uses as a noun ("summary", "outline", "list").
 * Retrieval still sees the whole question.
 */
const POLITE_OPENING = String.raw`(?:(?:please|bitte|por\s+favor|s'il\s+(?:te|vous)\s+pla[iî]t)[\s,]+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?`;

const INSTRUCTION_VERBS = [
  // English
  String.raw`explain(?:\s+to\s+me)?`,
  String.raw`describe`,
  String.raw`summari[sz]e`,
  String.raw`elaborate(?:\s+on)?`,
  String.raw`walk\s+me\s+through`,
  String.raw`tell\s+me(?:\s+more)?(?:\s+about)?`,
  String.raw`give\s+me\s+(?:an?\s+)?(?:overview|summary|explanation|description)\s+of`,
  String.raw`show\s+me`,
  String.raw`help\s+me\s+understand`,
  String.raw`i\s+(?:want|would\s+like|'d\s+like)\s+to\s+know`,
  // German
  String.raw`erkl[äa]r(?:e|en\s+sie)(?:\s+mir)?`,
  String.raw`beschreib(?:e|en\s+sie)(?:\s+mir)?`,
  String.raw`fass(?:e|en\s+sie)`,
  // French (before Spanish: "explique-moi" is French, "explique" both)
  String.raw`explique(?:z)?(?:-moi)?`,
  String.raw`d[ée]cri(?:s|vez)(?:-moi)?`,
  String.raw`r[ée]sume(?:z)?`,
  // Spanish
  String.raw`expl[ií]ca(?:me)?`,
  String.raw`expl[ií]que(?:me)?`,
  String.raw`descr[ií]be(?:me)?`,
  String.raw`descr[ií]ba(?:me)?`,
  String.raw`res[uú]me(?:me)?`,
  String.raw`dime`,
];

const ANYWHERE = [
  String.raw`step[\s-]+by[\s-]+step`,
  String.raw`in\s+(?:detail|simple\s+terms|plain\s+english|a\s+few\s+words)`,
  String.raw`briefly`,
  String.raw`please`,
  String.raw`schritt\s+f[üu]r\s+schritt`,
  String.raw`ausf[üu]hrlich`,
  String.raw`kurz\s+zusammen`,
  String.raw`bitte`,
  String.raw`paso\s+a\s+paso`,
  String.raw`en\s+detalle`,
  String.raw`por\s+favor`,
  String.raw`[ée]tape\s+par\s+[ée]tape`,
  String.raw`en\s+d[ée]tail`,
  String.raw`s'il\s+(?:te|vous)\s+pla[iî]t`,
];

const LATIN_OPENING = new RegExp(
  String.raw`^\s*${POLITE_OPENING}(?:${INSTRUCTION_VERBS.join('|')})(?![\p{L}\p{N}])`,
  'iu',
);
const LATIN_ANYWHERE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${ANYWHERE.join('|')})(?![\p{L}\p{N}])`,
  'giu',
);
// Chinese and Japanese are written without spaces, so these are matched as they are written.
const CJK_OPENING =
  /^\s*(?:请你?|麻烦你?)?(?:详细地?|简要地?)?(?:解释|说明|描述|介绍|讲解|总结|告诉我)(?:一下)?/u;
// 请 only as an opening (above): inside a sentence it is part of words such as 请求 (a request).
const CJK_ANYWHERE = /(?:一步一步地?|逐步地?|详细地?)/gu;

/** The question without the words that only ask for a form of answer; the question itself when nothing
 *  would be left. */
export function withoutFramingWords(question: string): string {
  const stripped = question
    .replace(LATIN_OPENING, ' ')
    .replace(CJK_OPENING, ' ')
    .replace(LATIN_ANYWHERE, ' ')
    .replace(CJK_ANYWHERE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return /[\p{L}\p{N}]/u.test(stripped) ? stripped : question;
}
