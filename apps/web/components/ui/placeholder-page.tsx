import type { ReactNode } from 'react';

export interface PlaceholderPageProps {
  title: string;
  children: ReactNode;
}

/** A page that is planned but not built yet: says so plainly. */
export function PlaceholderPage({ title, children }: PlaceholderPageProps) {
  return (
    <section className="page placeholder-page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <div className="placeholder-body">{children}</div>
    </section>
  );
}
