import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SourcesView } from '../../components/sources/sources-view';

export const metadata: Metadata = { title: 'Sources' };

export default function SourcesPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <SourcesView />
    </Suspense>
  );
}
