'use client';

import { useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';

/** The question templates (first 100): for filters, bank forms and generation. */
export function useTemplates(version = 0) {
  const api = useApiClient();
  return useResource(`templates|${version}`, (signal) =>
    api.listQuestionTemplates({ page: 1, limit: 100 }, { signal }),
  );
}
