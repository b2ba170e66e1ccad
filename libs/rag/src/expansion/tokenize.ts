/** A compact English stop-word list for pseudo-relevance feedback term selection. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have having ' +
    'he her here hers herself him himself his how however i if in into is it its itself just may me might more ' +
    'most must my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'yourself yourselves using used use via within without among whether thus therefore although though et al'
  ).split(' '),
);

/** Lower-cased word tokens of at least 3 letters (digits allowed inside), stop words removed. */
export function contentTokens(text: string): string[] {
  const tokens = text.toLowerCase().match(/[a-z][a-z0-9-]{2,}/g) ?? [];
  return tokens.filter((token) => !STOP_WORDS.has(token));
}
