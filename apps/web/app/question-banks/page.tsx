import type { Metadata } from 'next';
import { BanksView } from '../../components/question-banks/banks-view';

export const metadata: Metadata = { title: 'Question banks' };

export default function QuestionBanksPage() {
  return <BanksView />;
}
