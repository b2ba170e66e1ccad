import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DocumentDetail } from '../../../components/documents/document-detail';

export const metadata: Metadata = { title: 'Document' };

export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <DocumentDetail id={id} />
    </Suspense>
  );
}
