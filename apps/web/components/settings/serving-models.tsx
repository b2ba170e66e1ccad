'use client';

import { useHealth } from '../../hooks/use-health';
import { servingModels } from '../../lib/serving-models';
import styles from './serving-models.module.css';

/** Which models serve this server's searches and answers, from GET /health; nothing until it answers. */
export function ServingModels() {
  const health = useHealth();
  if (health.phase !== 'online') {
    return (
      <p className="field-hint" data-testid="serving-models-unknown">
        {health.phase === 'checking'
          ? 'Asking the server which models serve…'
          : 'The server did not say which models serve.'}
      </p>
    );
  }
  return (
    <dl className={styles.list} data-testid="serving-models">
      {servingModels(health.report).map((row) => (
        <div key={row.role} className={styles.row} data-tone={row.tone} data-role={row.role}>
          <span className={styles.dot} aria-hidden="true" />
          <dt>{row.role}</dt>
          <dd>
            <span className={styles.name}>{row.name}</span>
            <br />
            <span className="field-hint">{row.detail}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
