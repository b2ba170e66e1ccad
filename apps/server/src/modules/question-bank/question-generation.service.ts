import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, Optional } from '@nestjs/common';
import {
  LLM_GENERATOR_PROMPT_VERSION,
  TEMPLATE_GENERATOR_VERSION,
  generateLlmQuestion,
  generateTemplateQuestion,
  questionKey,
  samplePassages,
} from '@lumina/eval';
import type { ChatModel } from '@lumina/rag';
import type { GenerationJobStatus, GenerationOutcome, QuestionGenerator } from '@lumina/shared';
import { Queue } from 'bullmq';
import { JobName, jobOptions } from '../../jobs/job-catalogue';
import type { GenerateQuestionsPayload } from '../../jobs/job-catalogue';
import { isJobNamed } from '../../jobs/job-handlers';
import { QueueName } from '../../jobs/queue-name.enum';
import { InjectChatModel } from '../../providers/providers.module';
import type { GenerateItemsRequest } from '@lumina/shared';
import { QuestionBankItemService } from './question-bank-item.service';
import { QuestionBankService } from './question-bank.service';
import { QuestionTemplateService } from './question-template.service';
import { CorpusRepository } from './repositories/corpus.repository';
import { QuestionBankItemRepository } from './repositories/question-bank-item.repository';
import type { NewQuestionItem } from './repositories/question-bank-item.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';

/** Kinds the offline template generator cannot write honestly (it only turns passages into questions). */
const NEEDS_LLM = new Set(['out-of-scope', 'cross-lingual']);

/**
 * Writes bank items from sampled passages: with the chat model and the template's prompt when an LLM
 * is configured, else with the deterministic template generator. Every item cites the chunk it was
 * drawn from and says which generator wrote it.
 */
@Injectable()
export class QuestionGenerationService {
  private readonly logger = new Logger(QuestionGenerationService.name);

  constructor(
    private readonly corpus: CorpusRepository,
    private readonly itemRows: QuestionBankItemRepository,
    @InjectQueue(QueueName.Evaluation) private readonly queue: Queue,
    private readonly banks: QuestionBankService,
    private readonly templates: QuestionTemplateService,
    private readonly items: QuestionBankItemService,
    @Optional() @InjectChatModel() private readonly chatModel: ChatModel | null = null,
  ) {}

  /** Checks the request and queues the job; 404 for an unknown bank, 400 for unusable inputs. */
  async request(
    bankId: string,
    dto: GenerateItemsRequest,
  ): Promise<{ jobId: string; generator: QuestionGenerator }> {
    const collectionId = await this.banks.collectionOf(bankId);
    const template = await this.templates.findOne(dto.templateId).catch((error: unknown) => {
      if (error instanceof NotFoundError)
        throw new InvalidRequestError([`templateId: question template ${dto.templateId} does not exist`]);
      throw error;
    });
    if (!this.chatModel && NEEDS_LLM.has(template.kind)) {
      throw new InvalidRequestError([
        `"${template.kind}" questions need an LLM (set LLM_BASE_URL and LLM_MODEL); the offline generator ` +
          'only turns passages into questions they answer',
      ]);
    }
    const documentIds = [...new Set(dto.documentIds.map((id) => id.toLowerCase()))];
    const rows = await this.corpus.documentsWithChunkCounts(documentIds, collectionId);
    const found = new Map(rows.map((row) => [row.id, row]));
    const problems = documentIds.flatMap((id) => {
      const row = found.get(id);
      if (!row) return [`documentIds: unknown document ${id} (not in the bank's collection)`];
      if (row.chunks === 0) return [`documentIds: document ${id} has no passages yet (status ${row.status})`];
      return [];
    });
    if (problems.length) throw new InvalidRequestError(problems);
    const payload: GenerateQuestionsPayload = {
      bankId,
      templateId: template.id,
      documentIds,
      count: dto.count,
    };
    const job = await this.queue.add(
      JobName.GenerateQuestions,
      payload,
      jobOptions(JobName.GenerateQuestions),
    );
    return { jobId: String(job.id), generator: this.chatModel ? 'llm' : 'template' };
  }

  async status(bankId: string, jobId: string): Promise<GenerationJobStatus> {
    const job = await this.queue.getJob(jobId);
    if (!isJobNamed(job, JobName.GenerateQuestions) || job.data.bankId !== bankId) {
      throw new NotFoundError(`generation job ${jobId} not found for question bank ${bankId}`);
    }
    const progress = typeof job.progress === 'number' ? job.progress : 0;
    // The state is read after the job: one that finished in between is read again, so a "completed"
    // state never comes without the result the worker stored with it.
    const state = await job.getState();
    const finished = state === 'completed' || state === 'failed' ? await this.queue.getJob(jobId) : job;
    return {
      jobId,
      state,
      progress,
      result: ((finished ?? job).returnvalue as GenerationOutcome | null) ?? null,
      failedReason: (finished ?? job).failedReason ?? null,
    };
  }

  /** The job itself: sample, write, store in one transaction. Passages already cited in the bank go last. */
  async generate(
    payload: GenerateQuestionsPayload,
    onProgress: (fraction: number) => Promise<void> = async () => undefined,
  ): Promise<GenerationOutcome> {
    await this.banks.assertExists(payload.bankId);
    const template = await this.templates.findOne(payload.templateId);
    const passages = await this.corpus.passages(payload.documentIds);
    const used = await this.itemRows.citedChunkIds(payload.bankId);
    const candidates = passages.map((row) => ({
      chunkId: row.chunk_id,
      documentId: row.document_id,
      ordinal: row.ordinal,
      text: row.text,
      row,
    }));
    const seed = `${payload.bankId}:${payload.templateId}:${[...payload.documentIds].sort().join(',')}`;
    const fresh = samplePassages(
      candidates.filter((c) => !used.has(c.chunkId)),
      candidates.length,
      seed,
    );
    const again = samplePassages(
      candidates.filter((c) => used.has(c.chunkId)),
      candidates.length,
      seed,
    );
    const order = [...fresh, ...again];

    const generator: QuestionGenerator = this.chatModel ? 'llm' : 'template';
    const language = 'en';
    const seen = await this.items.questionKeys(payload.bankId);
    const written: NewQuestionItem[] = [];
    const sampled: string[] = [];
    const warnings: string[] = [];
    for (const candidate of order) {
      if (written.length === payload.count) break;
      sampled.push(candidate.chunkId);
      const passage = {
        title: candidate.row.title,
        headingPath: candidate.row.heading_path,
        text: candidate.text,
      };
      const metadata: Record<string, unknown> = {
        templateId: template.id,
        templateKind: template.kind,
        chunkId: candidate.chunkId,
        seed,
      };
      let question: string;
      let expectedAnswer: string | null;
      let usedGenerator: QuestionGenerator = generator;
      if (this.chatModel) {
        try {
          const reply = await generateLlmQuestion(
            this.chatModel,
            template.promptTemplate,
            template.kind,
            passage,
            language,
          );
          question = reply.question;
          expectedAnswer = reply.expectedAnswer;
          Object.assign(metadata, { model: reply.model, promptVersion: LLM_GENERATOR_PROMPT_VERSION });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          warnings.push(`chunk ${candidate.chunkId}: the LLM failed (${reason})`);
          this.logger.warn({ msg: 'question generation: LLM failed', chunkId: candidate.chunkId, reason });
          if (NEEDS_LLM.has(template.kind)) continue;
          const fallback = generateTemplateQuestion(passage, written.length);
          if (!fallback) continue;
          question = fallback.question;
          expectedAnswer = fallback.expectedAnswer;
          usedGenerator = 'template';
          Object.assign(metadata, {
            style: fallback.style,
            promptVersion: TEMPLATE_GENERATOR_VERSION,
            fallback: true,
          });
        }
      } else {
        const made = generateTemplateQuestion(passage, written.length);
        if (!made) continue;
        question = made.question;
        expectedAnswer = made.expectedAnswer;
        Object.assign(metadata, { style: made.style, promptVersion: TEMPLATE_GENERATOR_VERSION });
      }
      const key = questionKey(question);
      if (seen.has(key)) continue;
      seen.add(key);
      const inScope = template.kind !== 'out-of-scope';
      written.push({
        question,
        expectedAnswer,
        inScope,
        // An out-of-scope question is inspired by the passage but not answered by it.
        expectedSources: inScope
          ? [{ documentId: candidate.documentId, chunkId: candidate.chunkId, grade: 1 }]
          : [],
        language,
        tags: ['generated', template.kind],
        source: 'generated',
        generator: usedGenerator,
        metadata: inScope ? metadata : { ...metadata, drawnFromChunkId: candidate.chunkId },
      });
      await onProgress(written.length / payload.count);
    }
    if (written.length < payload.count) {
      warnings.push(
        `asked for ${payload.count} items, wrote ${written.length}: the documents have ${passages.length} passages` +
          (used.size ? ` (${used.size} already cited in the bank)` : ''),
      );
    }
    const stored = await this.items.insert(payload.bankId, written);
    return {
      bankId: payload.bankId,
      generator,
      requested: payload.count,
      created: stored.length,
      itemIds: stored.map((item) => item.id),
      sampledChunkIds: sampled,
      warnings,
    };
  }
}
