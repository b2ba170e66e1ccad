import type { Metadata } from 'next';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

export const metadata: Metadata = { title: 'Documents' };

export default function DocumentsPage() {
  return (
    <PlaceholderPage title="Documents">
      <p>Upload documents and follow their ingestion here. Coming soon.</p>
    </PlaceholderPage>
  );
}
