import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DocumentsView } from '../../components/documents/documents-view';

export const metadata: Metadata = { title: 'Documents' };

export default function DocumentsPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <DocumentsView />
    </Suspense>
  );
}
