import type { SearchResult } from '../../lib/api-types';

const EXCERPT_CHARS = 420;

/** Cuts long passages at a word boundary. */
export function excerpt(text: string, limit: number = EXCERPT_CHARS): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= limit) return clean;
  const cut = clean.slice(0, limit);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > limit * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

export interface PassageCardProps {
  result: SearchResult;
  position: number;
}

/** One retrieved passage: where it comes from, what it says, and how it scored. */
export function PassageCard({ result, position }: PassageCardProps) {
  const path = result.headingPath.join(' › ');
  const branches = result.provenance.map((item) => `${item.branch} #${item.rank}`).join(' · ');
  return (
    <article className="passage" aria-labelledby={`passage-${result.chunkId}-${position}`}>
      <header className="passage-header">
        <h3 id={`passage-${result.chunkId}-${position}`} className="passage-title">
          <span className="passage-rank">{position}.</span> {result.documentTitle}
        </h3>
        <span className="passage-score" title="Relevance score">
          score {result.score.toFixed(3)}
        </span>
      </header>
      {path ? <p className="passage-path">{path}</p> : null}
      <blockquote className="passage-text">{excerpt(result.text)}</blockquote>
      {branches ? <p className="passage-provenance">Found by {branches}</p> : null}
    </article>
  );
}
