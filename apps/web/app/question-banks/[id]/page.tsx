import type { Metadata } from 'next';
import { Suspense } from 'react';
import { BankDetail } from '../../../components/question-banks/bank-detail';

export const metadata: Metadata = { title: 'Question bank' };

export default async function QuestionBankPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <BankDetail id={id} />
    </Suspense>
  );
}
