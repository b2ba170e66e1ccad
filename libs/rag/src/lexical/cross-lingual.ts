/**
 * The warning a search carries when its question is in a language none of the documents are in and no
 * branch can cross languages: BM25 matches words, so only a multilingual embedder (behind the
 * OpenAI-compatible endpoint, with the dense branch searched) finds passages in another language.
 * Null when the question's language is unknown, the corpus is empty, or a document shares it.
 */
export function crossLingualWarning(
  queryLanguage: string | null,
  corpusLanguages: readonly string[],
  denseCrossesLanguages: boolean,
): string | null {
  if (!queryLanguage || corpusLanguages.length === 0 || corpusLanguages.includes(queryLanguage)) return null;
  if (denseCrossesLanguages) return null;
  return (
    `The question looks like ${queryLanguage} and no document is in ${queryLanguage} ` +
    `(documents: ${[...corpusLanguages].sort().join(', ')}). Keyword search only matches words of the ` +
    'same language; searching across languages needs a multilingual embedder (EMBEDDINGS_PROVIDER=openai ' +
    'with a multilingual EMBEDDINGS_MODEL) and the hybrid or dense ranker.'
  );
}
