'use client';

import { useState } from 'react';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import type { ImportFormat, ImportReport, ImportRequest } from '@lumina/shared';
import { saveTextFile } from '../../lib/download';
import { ErrorNotice } from '../ui/error-notice';
import './question-banks.css';

export interface BankImportExportProps {
  bankId: string;
  onImported: () => void;
}

async function buildImport(
  format: ImportFormat,
  files: { main?: File; qrels?: File },
  pasted: string,
  dryRun: boolean,
): Promise<ImportRequest | string> {
  const text = files.main ? await files.main.text() : pasted;
  if (!text.trim())
    return format === 'beir'
      ? 'Choose the queries.jsonl file (or paste its lines).'
      : 'Choose a file or paste its contents.';
  if (format === 'csv') return { format, csv: text, dryRun };
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return 'That is not valid JSON: expect an array of items, or { "items": [...] } as the export writes it.';
    }
    const items = Array.isArray(parsed)
      ? parsed
      : typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { items?: unknown }).items)
        ? (parsed as { items: unknown[] }).items
        : null;
    if (!items) return 'The JSON must be an array of items, or { "items": [...] }.';
    return { format, items, dryRun };
  }
  if (!files.qrels) return 'Choose the qrels file (a TSV of query-id, corpus-id, score) too.';
  return { format, queries: text, qrels: await files.qrels.text(), dryRun };
}

/**
 * "Imported 12 rows: 0 added, 12 unchanged, 0 updated, 0 rejected." A row matching an item of the bank
 * (by id, or by its question) updates it or leaves it as it is; only the others are added.
 */
export function importSummary(report: ImportReport): string {
  const plural = report.rows === 1 ? '' : 's';
  const skipped = report.skipped ? `, ${report.skipped.count} skipped (${report.skipped.reason})` : '';
  return (
    `${report.dryRun ? 'Checked' : 'Imported'} ${report.rows} row${plural}: ` +
    `${report.added} ${report.dryRun ? 'to add' : 'added'}, ${report.unchanged} unchanged, ` +
    `${report.updated} ${report.dryRun ? 'to update' : 'updated'}, ${report.rejected.length} rejected${skipped}.`
  );
}

/** Import questions (BEIR, CSV or JSON, with a report of every rejected row) and export them. */
export function BankImportExport({ bankId, onImported }: BankImportExportProps) {
  const api = useApiClient();
  const [format, setFormat] = useState<ImportFormat>('json');
  const [main, setMain] = useState<File | undefined>();
  const [qrels, setQrels] = useState<File | undefined>();
  const [pasted, setPasted] = useState('');
  const [dryRun, setDryRun] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [exporting, setExporting] = useState<'json' | 'csv' | null>(null);

  const exportAs = async (kind: 'json' | 'csv') => {
    setExporting(kind);
    setError(null);
    try {
      const file = await api.exportQuestionBankItems(bankId, kind);
      saveTextFile(file.text, file.filename, file.type);
    } catch (problem) {
      setError(isApiError(problem) ? problem.message : 'The export failed.');
    } finally {
      setExporting(null);
    }
  };

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import and export</h2>
      <div className="form-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void exportAs('json')}
          disabled={exporting !== null}
        >
          {exporting === 'json' ? 'Exporting…' : 'Export JSON'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void exportAs('csv')}
          disabled={exporting !== null}
        >
          {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <form
        className="form-grid"
        aria-label="Import questions"
        onSubmit={async (event) => {
          event.preventDefault();
          setError(null);
          setReport(null);
          const input = await buildImport(format, { main, qrels }, pasted, dryRun);
          if (typeof input === 'string') {
            setError(input);
            return;
          }
          setWorking(true);
          try {
            const result = await api.importQuestionBankItems(bankId, input);
            setReport(result);
            if (!result.dryRun && result.added + result.updated > 0) onImported();
          } catch (problem) {
            setError(isApiError(problem) ? problem.message : 'The import failed.');
          } finally {
            setWorking(false);
          }
        }}
      >
        <div className="field">
          <label htmlFor="import-format">Format</label>
          <select
            id="import-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ImportFormat)}
          >
            <option value="json">JSON (as exported)</option>
            <option value="csv">CSV (as exported)</option>
            <option value="beir">BEIR (queries.jsonl + qrels)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-file">{format === 'beir' ? 'queries.jsonl' : 'File'}</label>
          <input
            id="import-file"
            type="file"
            accept={
              format === 'csv'
                ? '.csv,text/csv'
                : format === 'json'
                  ? '.json,application/json'
                  : '.jsonl,.json'
            }
            onChange={(e) => setMain(e.target.files?.[0])}
          />
        </div>
        {format === 'beir' ? (
          <div className="field">
            <label htmlFor="import-qrels">qrels (.tsv)</label>
            <input
              id="import-qrels"
              type="file"
              accept=".tsv,.txt"
              onChange={(e) => setQrels(e.target.files?.[0])}
            />
          </div>
        ) : null}
        <div className="field field-wide">
          <label htmlFor="import-paste">
            …or paste {format === 'beir' ? 'the queries.jsonl lines' : 'the contents'}
          </label>
          <textarea id="import-paste" rows={3} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        </div>
        <div className="field field-toggle">
          <input
            id="import-dry-run"
            type="checkbox"
            className="switch"
            checked={dryRun}
            onChange={(e) => setDryRun(e.target.checked)}
          />
          <div className="field-text">
            <label htmlFor="import-dry-run">Check only (dry run)</label>
            <p className="field-hint">Reports what would be accepted or rejected without writing anything.</p>
          </div>
        </div>
        <div className="form-actions field-wide">
          <button type="submit" className="button button-primary" disabled={working}>
            {working ? 'Importing…' : dryRun ? 'Check the file' : 'Import'}
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      {report ? (
        <div className="import-report" role="status">
          <p>{importSummary(report)}</p>
          {report.rejected.length > 0 ? (
            <ul className="plain-list">
              {report.rejected.slice(0, 50).map((rejection) => (
                <li key={`${rejection.row}-${rejection.id ?? ''}`}>
                  Row {rejection.row}
                  {rejection.id ? ` (${rejection.id})` : ''}: {rejection.reasons.join('; ')}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
