import type { Metadata } from 'next';
import { Suspense } from 'react';
import { BanksView } from '../../components/question-banks/banks-view';

export const metadata: Metadata = { title: 'Question banks' };

export default function QuestionBanksPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <BanksView />
    </Suspense>
  );
}
