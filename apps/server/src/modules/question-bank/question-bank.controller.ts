import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  exportQuerySchema,
  generateItemsRequestSchema,
  generationJobStatusSchema,
  generationRequestedSchema,
  importReportSchema,
  importRequestSchema,
  listQuestionBankItemsQuerySchema,
  listQuestionBanksQuerySchema,
  pageOf,
  pageQuerySchema,
  questionBankInputSchema,
  questionBankItemPatchSchema,
  questionBankItemSchema,
  questionBankPatchSchema,
  questionBankSchema,
} from '@lumina/shared';
import type {
  CreatedQuestionBankItems,
  ExportQuery,
  GenerateItemsRequest,
  GenerationJobStatus,
  GenerationRequested,
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
} from '@lumina/shared';
import type { Response } from 'express';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { CollectionWorkGuard, WorkOn } from '../collections/collection-work.guard';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import type { Unserialized } from '../../common/unserialized';
import {
  createItemsAnswerSchema,
  CreateItemsBodyPipe,
  createItemsBodySchema,
} from './create-items-body.pipe';
import type { CreateItemsBody } from './create-items-body.pipe';
import { QuestionBankItemService } from './question-bank-item.service';
import { QuestionBankService } from './question-bank.service';
import { QuestionExportService } from './question-export.service';
import { QuestionGenerationService } from './question-generation.service';
import { QuestionImportService } from './question-import.service';

const uuid = ParseUUIDPipe;
const bankPage = pageOf(questionBankSchema);
const itemPage = pageOf(questionBankItemSchema);

@ApiTags('question-banks')
@UseGuards(CollectionWorkGuard)
@Controller('question-banks')
export class QuestionBankController {
  constructor(
    private readonly banks: QuestionBankService,
    private readonly items: QuestionBankItemService,
    private readonly importer: QuestionImportService,
    private readonly exporter: QuestionExportService,
    private readonly generation: QuestionGenerationService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List question banks (paginated; search in name/description; filter by template)',
  })
  @ApiBadRequestResponse({ description: 'page or limit below 1, a templateId that is not a UUID' })
  @ValidResponse(bankPage, 'QuestionBankPage')
  findAll(
    @ValidQuery(listQuestionBanksQuerySchema) query: ListQuestionBanksQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<QuestionBank>> {
    return this.banks.findAll(query, collectionAccess(principal));
  }

  @Get('by-template/:templateId')
  @ApiOperation({ summary: 'The banks made from a template (paginated)' })
  @ApiNotFoundResponse({ description: 'No such template' })
  @ValidResponse(bankPage, 'QuestionBankPage')
  findByTemplate(
    @Param('templateId', uuid) templateId: string,
    @ValidQuery(pageQuerySchema) query: PageQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<QuestionBank>> {
    return this.banks.findByTemplateId(templateId, query, collectionAccess(principal));
  }

  @Post()
  @ApiOperation({ summary: 'Create a question bank (admin)' })
  @ValidResponse(questionBankSchema, 'QuestionBank')
  create(
    @ValidBody(questionBankInputSchema, 'QuestionBankInput') body: QuestionBankInput,
    @CurrentPrincipal() principal: Principal,
  ): Promise<QuestionBank> {
    return this.banks.create(body, collectionAccess(principal));
  }

  @Get(':id')
  @WorkOn('bank')
  @ApiNotFoundResponse({ description: 'No such bank' })
  @ValidResponse(questionBankSchema, 'QuestionBank')
  findOne(@Param('id', uuid) id: string): Promise<QuestionBank> {
    return this.banks.findOne(id);
  }

  @Patch(':id')
  @WorkOn('bank')
  @ApiOperation({ summary: 'Change a bank (admin); templateId null detaches it from its template' })
  @ValidResponse(questionBankSchema, 'QuestionBank')
  update(
    @Param('id', uuid) id: string,
    @ValidBody(questionBankPatchSchema, 'QuestionBankPatch') body: Partial<QuestionBankInput>,
  ): Promise<QuestionBank> {
    return this.banks.update(id, body);
  }

  @Delete(':id')
  @WorkOn('bank')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a bank with its items and evaluation runs (admin)' })
  async remove(@Param('id', uuid) id: string): Promise<void> {
    await this.banks.remove(id);
  }

  @Get(':id/items')
  @WorkOn('bank')
  @ApiOperation({
    summary: "A bank's items in the order they were written (paginated; filter by tag, inScope)",
  })
  @ValidResponse(itemPage, 'QuestionBankItemPage')
  findItems(
    @Param('id', uuid) id: string,
    @ValidQuery(listQuestionBankItemsQuerySchema) query: ListQuestionBankItemsQuery,
  ): Promise<Page<Unserialized<QuestionBankItem>>> {
    return this.items.findAll(id, query);
  }

  @Post(':id/items')
  @WorkOn('bank')
  @ApiOperation({
    summary: 'Add one item, or a batch { items: [...] } (admin)',
    description:
      'Expected sources name documents (by id or external id) and/or chunks; an unknown one is a 400. ' +
      'A batch is written all or nothing.',
  })
  @ValidResponse(createItemsAnswerSchema, 'QuestionBankItemsCreated')
  async createItems(
    @Param('id', uuid) id: string,
    @ValidBody(createItemsBodySchema, 'QuestionBankItemsInput', { pipe: new CreateItemsBodyPipe() })
    body: CreateItemsBody,
  ): Promise<Unserialized<QuestionBankItem> | Unserialized<CreatedQuestionBankItems>> {
    const created = await this.items.create(id, body.items);
    return body.batch ? { items: created } : created[0];
  }

  @Get(':id/items/:itemId')
  @WorkOn('bank')
  @ValidResponse(questionBankItemSchema, 'QuestionBankItem')
  findItem(
    @Param('id', uuid) id: string,
    @Param('itemId', uuid) itemId: string,
  ): Promise<Unserialized<QuestionBankItem>> {
    return this.items.findOne(id, itemId);
  }

  @Patch(':id/items/:itemId')
  @WorkOn('bank')
  @ValidResponse(questionBankItemSchema, 'QuestionBankItem')
  updateItem(
    @Param('id', uuid) id: string,
    @Param('itemId', uuid) itemId: string,
    @ValidBody(questionBankItemPatchSchema, 'QuestionBankItemPatch') body: Partial<QuestionBankItemInput>,
  ): Promise<Unserialized<QuestionBankItem>> {
    return this.items.update(id, itemId, body);
  }

  @Delete(':id/items/:itemId')
  @WorkOn('bank')
  @HttpCode(204)
  async removeItem(@Param('id', uuid) id: string, @Param('itemId', uuid) itemId: string): Promise<void> {
    await this.items.remove(id, itemId);
  }

  @Post(':id/import')
  @WorkOn('bank')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import items from BEIR (queries.jsonl + qrels text), CSV or JSON (admin)',
    description:
      'Each row is checked on its own; the report lists accepted and rejected rows with reasons. An expected ' +
      'source naming an unknown document or chunk rejects its row. Re-importing is idempotent: a row whose id ' +
      "names an item of the bank, or that asks an item's question (case and whitespace aside), updates that " +
      'item or leaves it unchanged; the report counts added, updated and unchanged. dryRun checks without writing.',
  })
  @ValidResponse(importReportSchema, 'ImportReport')
  async importItems(
    @Param('id', uuid) id: string,
    @ValidBody(importRequestSchema, 'ImportRequest') body: ImportRequest,
  ): Promise<ImportReport> {
    await this.banks.assertExists(id);
    return this.importer.import(id, body);
  }

  @Get(':id/export')
  @WorkOn('bank')
  @ApiOperation({ summary: 'Export a bank as JSON or CSV (both re-importable)' })
  async export(
    @Param('id', uuid) id: string,
    @ValidQuery(exportQuerySchema) query: ExportQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const file = await this.exporter.export(id, query.format ?? 'json');
    response.setHeader('Content-Type', file.contentType);
    response.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    return file.body;
  }

  @Post(':id/generate')
  @WorkOn('bank')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queue a job that writes items from sampled passages (admin)',
    description:
      'With an LLM configured the template prompt writes each question; offline a deterministic template ' +
      'generator does (items say which: generator llm | template). Every item cites its chunk.',
  })
  @ApiAcceptedResponse({
    description: '{ jobId, generator, statusUrl }',
    schema: { $ref: contractRef(generationRequestedSchema, 'GenerationRequested') },
  })
  async generate(
    @Param('id', uuid) id: string,
    @ValidBody(generateItemsRequestSchema, 'GenerateItemsRequest') body: GenerateItemsRequest,
  ): Promise<GenerationRequested> {
    const queued = await this.generation.request(id, body);
    return { ...queued, statusUrl: `/question-banks/${id}/generate/${queued.jobId}` };
  }

  @Get(':id/generate/:jobId')
  @WorkOn('bank')
  @ApiOperation({ summary: 'State and outcome of a generation job' })
  @ValidResponse(generationJobStatusSchema, 'GenerationJobStatus')
  generationStatus(
    @Param('id', uuid) id: string,
    @Param('jobId') jobId: string,
  ): Promise<GenerationJobStatus> {
    return this.generation.status(id, jobId);
  }
}
