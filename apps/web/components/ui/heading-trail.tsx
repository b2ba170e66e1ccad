import { headingsAfterTitle } from '@lumina/shared';

/** " › Leave › Vacation" after a document's title, without a first heading that repeats the title. */
export function HeadingTrail({
  title,
  headingPath,
  className,
}: {
  title: string;
  headingPath: readonly string[];
  className: string;
}) {
  const headings = headingsAfterTitle(title, headingPath);
  return headings.length ? <span className={className}> › {headings.join(' › ')}</span> : null;
}
