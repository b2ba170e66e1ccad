/** Question banks, their items (one by one, imported, exported, generated) and question templates. */
import {
  createdQuestionBankItemsSchema,
  generationJobStatusSchema,
  generationRequestedSchema,
  importReportSchema,
  pageOf,
  questionBankItemSchema,
  questionBankSchema,
  questionTemplateSchema,
} from '@lumina/shared';
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
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** A file to save: GET /question-banks/:id/export's text, a file name and a media type. */
export type ExportedFile = { text: string; filename: string; type: string };

const bank = parsedBy(questionBankSchema);
const bankPage = parsedBy(pageOf(questionBankSchema));
const item = parsedBy(questionBankItemSchema);
const itemPage = parsedBy(pageOf(questionBankItemSchema));
const template = parsedBy(questionTemplateSchema);
const templatePage = parsedBy(pageOf(questionTemplateSchema));
const generationJob = parsedBy(generationJobStatusSchema);
const generationRequested = parsedBy(generationRequestedSchema);
const createdBatch = parsedBy(createdQuestionBankItemsSchema);

/** POST /question-banks/:id/items: one item answers the item, a batch `{ items }`. */
function createdItems(answer: unknown): QuestionBankItem[] | null {
  const one = item(answer);
  return one ? [one] : (createdBatch(answer)?.items ?? null);
}

/** The answer of POST …/generate (`{ jobId, generator, statusUrl }`): a job that is still waiting. */
function queuedJob(answer: unknown): GenerationJobStatus | null {
  const queued = generationRequested(answer);
  return queued && { jobId: queued.jobId, state: 'waiting', progress: 0, result: null, failedReason: null };
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
        bankPage,
        'expected a page of question banks',
      );
    },

    getQuestionBank(id: string, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return http.json(ops.getQuestionBank, { params: { id }, signal }, bank, 'expected a question bank');
    },

    createQuestionBank(input: QuestionBankInput, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return http.json(
        ops.createQuestionBank,
        { body: input, signal },
        bank,
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
        bank,
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
        itemPage,
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
        createdItems,
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
        item,
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
        parsedBy(importReportSchema),
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
        queuedJob,
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
        generationJob,
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
        templatePage,
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
        template,
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
        template,
        'expected the template',
      );
    },

    deleteQuestionTemplate(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteQuestionTemplate, { params: { id }, signal });
    },
  };
}
