import type { Metadata } from 'next';
import { RunDetail } from '../../../components/evals/run-detail';

export const metadata: Metadata = { title: 'Evaluation run' };

export default async function EvalRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunDetail id={id} />;
}
