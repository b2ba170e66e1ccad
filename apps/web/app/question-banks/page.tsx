import type { Metadata } from 'next';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

export const metadata: Metadata = { title: 'Question banks' };

export default function QuestionBanksPage() {
  return (
    <PlaceholderPage title="Question banks">
      <p>Collect questions with their expected passages to measure retrieval quality. Coming soon.</p>
    </PlaceholderPage>
  );
}
