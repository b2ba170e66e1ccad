'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useDebounced, useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { pageFromParam } from '../../lib/url-state';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import { formatDateTime } from '../../lib/format';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { BankFields, type BankDraft } from './bank-fields';
import { TemplateManager } from './template-manager';
import { useTemplates } from './use-templates';

const PAGE_SIZE = 10;

/** Question banks: find one (by words or template), or create one. */
export function BanksView() {
  const api = useApiClient();
  const router = useRouter();
  const [url, setUrl] = useUrlState({ page: '1', q: '', template: '' });
  const page = pageFromParam(url.page);
  const templateId = url.template;
  const setPage = (next: number) => setUrl({ page: next });
  const [search, setSearch] = useState(url.q);
  const [templatesVersion, setTemplatesVersion] = useState(0);
  const query = useDebounced(search.trim(), 300);
  useEffect(() => {
    if (query !== url.q) setUrl({ q: query, page: 1 });
  }, [query, url.q, setUrl]);
  const templates = useTemplates(templatesVersion);
  const banks = useResource(`${page}|${query}|${templateId}`, (signal) =>
    api.listQuestionBanks(
      { page, limit: PAGE_SIZE, search: query || undefined, templateId: templateId || undefined },
      { signal },
    ),
  );

  const [draft, setDraft] = useState<BankDraft>({ name: '', templateId: '', description: '' });
  const [createError, setCreateError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const templateList = templates.data?.items ?? [];
  const templateName = (id: string | null) => templateList.find((template) => template.id === id)?.name;

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">Question banks</h1>
      <p className="field-hint">
        Curated questions with the passages that answer them. A bank doubles as an evaluation set for the
        current retrieval settings.
      </p>

      {banks.missing ? (
        <Notice tone="warn">Question banks aren&apos;t available on this server yet.</Notice>
      ) : null}

      <section className="card" aria-labelledby="new-bank-title">
        <h2 id="new-bank-title">New question bank</h2>
        <form
          className="form-grid"
          onSubmit={async (event) => {
            event.preventDefault();
            setCreating(true);
            setCreateError(null);
            try {
              const bank = await api.createQuestionBank({
                name: draft.name.trim(),
                ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
                ...(draft.templateId ? { templateId: draft.templateId } : {}),
              });
              router.push(`/question-banks/${encodeURIComponent(bank.id)}`);
            } catch (error) {
              setCreateError(isApiError(error) ? error.message : 'The bank could not be created.');
              setCreating(false);
            }
          }}
        >
          <BankFields
            idPrefix="bank"
            draft={draft}
            onChange={setDraft}
            templates={templateList}
            showTemplateKind
            descriptionMaxLength={2000}
          />
          <ErrorNotice error={createError} />
          <div>
            <button type="submit" className="button button-primary" disabled={creating || !draft.name.trim()}>
              {creating ? 'Creating…' : 'Create bank'}
            </button>
          </div>
        </form>
      </section>

      <section className="card" aria-labelledby="banks-title">
        <div className="card-head">
          <h2 id="banks-title">Banks</h2>
          <div className="filters">
            <div className="field field-inline">
              <label htmlFor="bank-search">Search</label>
              <input
                id="bank-search"
                type="search"
                value={search}
                placeholder="Name or description"
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            <div className="field field-inline">
              <label htmlFor="bank-filter-template">Template</label>
              <select
                id="bank-filter-template"
                value={templateId}
                onChange={(e) => setUrl({ template: e.target.value, page: 1 })}
              >
                <option value="">All templates</option>
                {templateList.map((template) => (
                  <option key={template.id} value={template.id}>
                    {template.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <ErrorNotice error={banks.missing ? null : banks.error} onRetry={banks.reload} />
        {banks.data && banks.data.items.length === 0 && !banks.loading ? (
          <p className="empty-state">{query || templateId ? 'No bank matches.' : 'No question banks yet.'}</p>
        ) : null}
        {banks.data && banks.data.items.length > 0 ? (
          <DataTable
            label="Question banks"
            busy={banks.loading}
            head={
              <>
                <th scope="col">Name</th>
                <th scope="col">Template</th>
                <th scope="col" className="numeric">
                  Questions
                </th>
                <th scope="col" className="hide-narrow">
                  Updated
                </th>
              </>
            }
          >
            {banks.data.items.map((bank) => (
              <tr key={bank.id}>
                <td>
                  <Link href={`/question-banks/${encodeURIComponent(bank.id)}`}>{bank.name}</Link>
                  {bank.description ? <span className="cell-sub">{bank.description}</span> : null}
                </td>
                <td>{templateName(bank.templateId) ?? <span className="muted">—</span>}</td>
                <td className="numeric">{bank.itemCount}</td>
                <td className="hide-narrow">{formatDateTime(bank.updatedAt)}</td>
              </tr>
            ))}
          </DataTable>
        ) : null}
        <Pagination label="Question banks" data={banks.data} disabled={banks.loading} onPage={setPage} />
      </section>

      <TemplateManager
        templates={templateList}
        onChanged={() => {
          setTemplatesVersion((v) => v + 1);
          banks.reload();
        }}
      />
    </section>
  );
}
