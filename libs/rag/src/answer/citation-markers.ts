/**
 * Citation markers in answer text. The model is asked for `[n]`; variants models write anyway are read
 * too: `[1, 2]`, `[1; 2]`, `[^1]`, `[Passage 1]`, `[source 2]`. One bracket group holds up to 8 numbers.
 */
export const MARKER_GROUP =
  /\[\s*((?:\^|(?:passages?|sources?)\s*)?\d{1,4}(?:\s*[,;]\s*(?:\^|(?:passages?|sources?)\s*)?\d{1,4}){0,7})\s*\]/gi;

/** A reference-style Markdown link or image, `[text][ref]`, `[text][]`, `![alt][ref]`. */
const REFERENCE_LINK = /!?\[([^\]\n]*)\]\[[^\]\n]*\]/g;

/** A marker group that is not an inline link's text (`[2](https://…)` stays a link). */
const MARKER_NOT_LINK = new RegExp(`${MARKER_GROUP.source}(?!\\()`, 'gi');

/**
 * Quoted source text that cannot pass for a citation marker: a reference-style link or image (`[here][2]`,
 * whose definition the quote leaves behind) becomes its text (an image its alt text), and any other bracketed number (`[12]`, a
 * source's own footnote) loses its brackets. Left as they are, the reader and the citation check take
 * them for markers, which may name another passage.
 */
export function withoutMarkerLookalikes(text: string): string {
  return text.replace(REFERENCE_LINK, '$1').replace(MARKER_NOT_LINK, (_group, inner: string) => inner);
}

/** The numbers of one marker group's inner text, e.g. "1, ^2" → [1, 2]. */
export function markerNumbers(inner: string): number[] {
  return (inner.match(/\d{1,4}/g) ?? []).map(Number);
}

/** True when `inner` (text between brackets) is a marker group, e.g. "2" or "1, 3". */
export function isMarkerGroup(inner: string): boolean {
  return new RegExp(`^${MARKER_GROUP.source}$`, 'i').test(`[${inner}]`);
}

/** The markers cited in (sanitised) answer text, each once, in order of first appearance. */
export function citedMarkers(text: string): number[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(MARKER_GROUP)) {
    for (const marker of markerNumbers(match[1])) seen.add(marker);
  }
  return [...seen];
}

export interface MarkerRewrite {
  /** The group in canonical form `[1][2]`, or '' when it names no valid passage. */
  replacement: string;
  valid: number[];
  invalid: number[];
}

/** Rewrites one marker group: keeps markers 1..passageCount (deduplicated), reports the others. */
export function rewriteMarkerGroup(inner: string, passageCount: number): MarkerRewrite {
  const valid: number[] = [];
  const invalid: number[] = [];
  for (const marker of markerNumbers(inner)) {
    const list = Number.isInteger(marker) && marker >= 1 && marker <= passageCount ? valid : invalid;
    if (!list.includes(marker)) list.push(marker);
  }
  return { replacement: valid.map((marker) => `[${marker}]`).join(''), valid, invalid };
}

/** A passage that can be cited: `marker` is the number the answer writes for it ("[2]"). */
export interface CitablePassage {
  marker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  anchor: string | null;
  spanStart: number;
  spanEnd: number;
  pages?: { first: number; last: number };
}

export interface ResolvedCitation {
  marker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  anchor: string | null;
  span: { start: number; end: number };
  pages?: { first: number; last: number };
}

/**
 * The passage a marker names: the one whose own `marker` is that number, never the passage at that
 * position in the list (passages renumbered in citing order keep their retrieval order). Null when none.
 */
export function passageForMarker<P extends { marker: number }>(
  marker: number,
  passages: readonly P[],
): P | null {
  return passages.find((passage) => passage.marker === marker) ?? null;
}

/**
 * The citations of an answer: each marker the text cites that names a passage, mapped to that
 * passage's chunk (by the passage's marker); markers naming no passage are returned as `dropped`.
 */
export function resolveCitations(
  text: string,
  passages: readonly CitablePassage[],
): { citations: ResolvedCitation[]; dropped: number[] } {
  const citations: ResolvedCitation[] = [];
  const dropped: number[] = [];
  for (const marker of citedMarkers(text)) {
    const passage = passageForMarker(marker, passages);
    if (!passage) {
      dropped.push(marker);
      continue;
    }
    citations.push({
      marker,
      chunkId: passage.chunkId,
      documentId: passage.documentId,
      title: passage.title,
      headingPath: passage.headingPath,
      anchor: passage.anchor,
      span: { start: passage.spanStart, end: passage.spanEnd },
      ...(passage.pages ? { pages: passage.pages } : {}),
    });
  }
  return { citations, dropped };
}
