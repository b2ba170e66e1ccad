import type { Metadata } from 'next';
import { BankDetail } from '../../../components/question-banks/bank-detail';

export const metadata: Metadata = { title: 'Question bank' };

export default async function QuestionBankPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BankDetail id={id} />;
}
