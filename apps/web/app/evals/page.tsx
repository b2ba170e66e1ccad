import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EvalsView } from '../../components/evals/evals-view';

export const metadata: Metadata = { title: 'Evaluations' };

export default function EvalsPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <EvalsView />
    </Suspense>
  );
}
