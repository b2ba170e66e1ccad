import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FeedbackView } from '../../components/feedback/feedback-view';

export const metadata: Metadata = { title: 'Feedback' };

export default function FeedbackPage() {
  return (
    <Suspense fallback={<p className="field-hint">Loading…</p>}>
      <FeedbackView />
    </Suspense>
  );
}
