/** Question banks, their items (one by one, imported, exported, generated) and question templates. */
import type {
  ExportFormat,
  GenerateItemsRequest,
  GenerationJobStatus,
  ImportReport,
  ImportRequest,
  ListQuestionBankItemsQuery,
  ListQuestionBanksQuery,
  Page,
  PageQuery,
  QuestionBank,
  QuestionBankInput,
  QuestionBankItem,
  QuestionBankItemInput,
  QuestionTemplate,
  QuestionTemplateInput,
} from '@lumina/shared';
import { httpError } from '../api-errors';
import { API_OPERATIONS } from '../api-operations';
import { asRecordWithId, isRecord, parsePage } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** A file to save: GET /question-banks/:id/export's text, a file name and a media type. */
export type ExportedFile = { text: string; filename: string; type: string };

/** POST /question-banks/:id/items: one item answers the item, a batch `{ items }`; a bare list is read too. */
function parseCreatedItems(answer: unknown): QuestionBankItem[] | null {
  const rows = (list: unknown[]) =>
    list
      .map((row) => asRecordWithId<QuestionBankItem>(row))
      .filter((row): row is QuestionBankItem => row !== null);
  if (Array.isArray(answer)) return rows(answer);
  if (isRecord(answer) && Array.isArray(answer.items)) return rows(answer.items);
  const one = asRecordWithId<QuestionBankItem>(answer);
  return one ? [one] : null;
}

/** The import report; a server that only counts `accepted` is read as having added them all. */
function parseImportReport(body: unknown): ImportReport | null {
  return isRecord(body) && typeof body.accepted === 'number'
    ? ({ added: body.accepted, updated: 0, unchanged: 0, ...body } as unknown as ImportReport)
    : null;
}

/**
 * GET /question-banks/:id/generate/:jobId, and the answer of POST …/generate (`{ jobId, generator,
 * statusUrl }`), read as a job that is still waiting.
 */
export function parseGenerationJob(value: unknown): GenerationJobStatus | null {
  if (!isRecord(value)) return null;
  const jobId =
    typeof value.jobId === 'string' ? value.jobId : typeof value.id === 'string' ? value.id : null;
  if (!jobId) return null;
  return {
    jobId,
    state: typeof value.state === 'string' ? value.state : 'waiting',
    progress: typeof value.progress === 'number' ? value.progress : 0,
    result: isRecord(value.result) ? (value.result as unknown as GenerationJobStatus['result']) : null,
    failedReason: typeof value.failedReason === 'string' ? value.failedReason : null,
  };
}

export function questionBanksApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    listQuestionBanks(
      query: ListQuestionBanksQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionBank>> {
      return http.json(
        ops.listQuestionBanks,
        { query: queryOf(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionBank>),
        'expected a page of question banks',
      );
    },

    getQuestionBank(id: string, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return http.json(
        ops.getQuestionBank,
        { params: { id }, signal },
        asRecordWithId<QuestionBank>,
        'expected a question bank',
      );
    },

    createQuestionBank(input: QuestionBankInput, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return http.json(
        ops.createQuestionBank,
        { body: input, signal },
        asRecordWithId<QuestionBank>,
        'expected the new question bank',
      );
    },

    updateQuestionBank(
      id: string,
      input: Partial<QuestionBankInput>,
      { signal }: RequestOptions = {},
    ): Promise<QuestionBank> {
      return http.json(
        ops.updateQuestionBank,
        { params: { id }, body: input, signal },
        asRecordWithId<QuestionBank>,
        'expected the question bank',
      );
    },

    deleteQuestionBank(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteQuestionBank, { params: { id }, signal });
    },

    listQuestionBankItems(
      id: string,
      query: ListQuestionBankItemsQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionBankItem>> {
      return http.json(
        ops.listQuestionBankItems,
        { params: { id }, query: queryOf(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionBankItem>),
        'expected a page of questions',
      );
    },

    /** One item, or several at once (`{ items }`). */
    createQuestionBankItems(
      id: string,
      items: QuestionBankItemInput[],
      { signal }: RequestOptions = {},
    ): Promise<QuestionBankItem[]> {
      const body: QuestionBankItemInput | { items: QuestionBankItemInput[] } =
        items.length === 1 ? items[0] : { items };
      return http.json(
        ops.createQuestionBankItems,
        { params: { id }, body, signal },
        parseCreatedItems,
        'expected the new questions',
      );
    },

    updateQuestionBankItem(
      id: string,
      itemId: string,
      input: Partial<QuestionBankItemInput>,
      { signal }: RequestOptions = {},
    ): Promise<QuestionBankItem> {
      return http.json(
        ops.updateQuestionBankItem,
        { params: { id, itemId }, body: input, signal },
        asRecordWithId<QuestionBankItem>,
        'expected the question',
      );
    },

    deleteQuestionBankItem(id: string, itemId: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteQuestionBankItem, { params: { id, itemId }, signal });
    },

    importQuestionBankItems(
      id: string,
      input: ImportRequest,
      { signal }: RequestOptions = {},
    ): Promise<ImportReport> {
      return http.json(
        ops.importQuestionBankItems,
        { params: { id }, body: input, signal },
        parseImportReport,
        'expected an import report',
      );
    },

    /** GET /question-banks/:id/export: the file's text and a file name for saving it. */
    async exportQuestionBankItems(
      id: string,
      format: ExportFormat,
      { signal }: RequestOptions = {},
    ): Promise<ExportedFile> {
      const operation = ops.exportQuestionBankItems;
      const {
        status,
        ok,
        json: body,
        text,
        headers,
      } = await http.call(operation, { params: { id }, query: { format }, signal });
      if (!ok) throw httpError({ status, body, operation });
      const disposition = headers.get('content-disposition') ?? '';
      const named = /filename="?([^";]+)"?/.exec(disposition)?.[1];
      return {
        text,
        filename: named ?? `question-bank-${id}.${format}`,
        type: headers.get('content-type') ?? (format === 'csv' ? 'text/csv' : 'application/json'),
      };
    },

    generateQuestionBankItems(
      id: string,
      input: GenerateItemsRequest,
      { signal }: RequestOptions = {},
    ): Promise<GenerationJobStatus> {
      return http.json(
        ops.generateQuestionBankItems,
        { params: { id }, body: input, signal },
        parseGenerationJob,
        'expected the generation job',
      );
    },

    getGenerationJob(
      id: string,
      jobId: string,
      { signal }: RequestOptions = {},
    ): Promise<GenerationJobStatus> {
      return http.json(
        ops.getGenerationJob,
        { params: { id, jobId }, signal },
        parseGenerationJob,
        'expected the generation job',
      );
    },

    listQuestionTemplates(
      query: PageQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionTemplate>> {
      return http.json(
        ops.listQuestionTemplates,
        { query: queryOf(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionTemplate>),
        'expected a page of templates',
      );
    },

    createQuestionTemplate(
      input: QuestionTemplateInput,
      { signal }: RequestOptions = {},
    ): Promise<QuestionTemplate> {
      return http.json(
        ops.createQuestionTemplate,
        { body: input, signal },
        asRecordWithId<QuestionTemplate>,
        'expected the new template',
      );
    },

    updateQuestionTemplate(
      id: string,
      input: Partial<QuestionTemplateInput>,
      { signal }: RequestOptions = {},
    ): Promise<QuestionTemplate> {
      return http.json(
        ops.updateQuestionTemplate,
        { params: { id }, body: input, signal },
        asRecordWithId<QuestionTemplate>,
        'expected the template',
      );
    },

    deleteQuestionTemplate(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteQuestionTemplate, { params: { id }, signal });
    },
  };
}
