import type { SearchResponse } from '../../lib/api-types';

export interface SearchDetailsProps {
  search: SearchResponse;
}

/** How a search was run: the generated variants, the HyDE passage and the time each stage took. */
export function SearchDetails({ search }: SearchDetailsProps) {
  const timings = Object.entries(search.timings);
  if (search.expansions.length === 0 && !search.hyde && timings.length === 0) return null;
  return (
    <details className="search-details">
      <summary>How this was searched</summary>
      {search.expansions.length > 0 ? (
        <>
          <h4>Query variants</h4>
          <ul>
            {search.expansions.map((expansion, index) => (
              <li key={`${index}-${expansion}`}>{expansion}</li>
            ))}
          </ul>
        </>
      ) : null}
      {search.hyde ? (
        <>
          <h4>Hypothetical answer (HyDE)</h4>
          <p>{search.hyde}</p>
        </>
      ) : null}
      {timings.length > 0 ? (
        <>
          <h4>Timings</h4>
          <dl className="timings">
            {timings.map(([stage, ms]) => (
              <div key={stage}>
                <dt>{stage}</dt>
                <dd>{Math.round(ms)} ms</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </details>
  );
}
