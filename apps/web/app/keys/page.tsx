import type { Metadata } from 'next';
import { Suspense } from 'react';
import { KeysView } from '../../components/keys/keys-view';

export const metadata: Metadata = { title: 'API keys' };

export default function KeysPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <KeysView />
    </Suspense>
  );
}
