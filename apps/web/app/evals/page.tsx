import type { Metadata } from 'next';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

export const metadata: Metadata = { title: 'Evaluations' };

export default function EvaluationsPage() {
  return (
    <PlaceholderPage title="Evaluations">
      <p>Run a question bank against different retrieval settings and compare the results. Coming soon.</p>
    </PlaceholderPage>
  );
}
