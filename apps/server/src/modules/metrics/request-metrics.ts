import { Global, Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) shared by the HTTP, search and chat histograms. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The route label of a request no route matched (unknown paths, static files, the API docs). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Request-side Prometheus series of this process: HTTP durations by route template and status, and the
 * latency and errors of searches and chat answers. GET /metrics (MetricsService) exposes them with the
 * queue series; a worker process records its own searches here but serves no scrape.
 */
@Injectable()
export class RequestMetrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'lumina_http_request_duration_seconds',
    help: 'Time from a request arriving to its response finishing, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly searchDuration = new Histogram({
    name: 'lumina_search_duration_seconds',
    help: 'Time a search took (API searches, chat retrieval and evaluation searches), by outcome (ok, error)',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly searchErrors = new Counter({
    name: 'lumina_search_errors_total',
    help: 'Searches that ended in an error, by error code (internal when the error had none)',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  private readonly chatDuration = new Histogram({
    name: 'lumina_chat_answer_duration_seconds',
    help: 'Time from a chat question to its stored answer, by status (complete, failed, cancelled)',
    labelNames: ['status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly chatErrors = new Counter({
    name: 'lumina_chat_errors_total',
    help: 'Chat answers that failed, by error code (e.g. llm_unavailable, internal)',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  private readonly collectionSearches = new Counter({
    name: 'lumina_collection_searches_total',
    help: 'Searches that read each collection, by its id (chat answers and evaluations run in this process included)',
    labelNames: ['collection'] as const,
    registers: [this.registry],
  });

  private readonly answers = new Counter({
    name: 'lumina_answers_total',
    help: 'Complete chat answers, by not_found (true: the documents did not answer the question)',
    labelNames: ['not_found'] as const,
    registers: [this.registry],
  });

  private readonly generalKnowledgeRequests = new Counter({
    name: 'lumina_general_knowledge_requests_total',
    help: 'Requests for an answer from general knowledge after the documents found nothing',
    registers: [this.registry],
  });

  private readonly feedback = new Counter({
    name: 'lumina_feedback_total',
    help: 'Ratings of answers, by rating (up, down) and reason (one count per reason; none for a rating without one)',
    labelNames: ['rating', 'reason'] as const,
    registers: [this.registry],
  });

  /** Express middleware: observes every response's duration when it finishes. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      this.httpDuration.observe(
        { method: req.method, route: routeTemplate(req), status: String(res.statusCode) },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };

  /** Runs a search and records its duration, and its error code when it throws. */
  async timeSearch<T>(search: () => Promise<T>): Promise<T> {
    const end = this.searchDuration.startTimer();
    try {
      const result = await search();
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: 'error' });
      this.searchErrors.inc({ code: errorCode(error) });
      throw error;
    }
  }

  /** One search read these collections. */
  countCollectionSearch(collectionIds: readonly string[]): void {
    for (const collection of collectionIds) this.collectionSearches.inc({ collection });
  }

  /** Records one chat answer: its duration and, when it failed, the error's code. */
  observeChat(status: string, seconds: number, errorCode?: string): void {
    this.chatDuration.observe({ status }, seconds);
    if (status === 'failed') this.countChatError(errorCode ?? 'internal');
  }

  /** One complete answer, from the documents or not (not_found). */
  countAnswer(notFound: boolean): void {
    this.answers.inc({ not_found: String(notFound) });
  }

  /** One request for an answer from general knowledge. */
  countGeneralKnowledgeRequest(): void {
    this.generalKnowledgeRequests.inc();
  }

  /** One rating: a count per reason it gives, or one with reason `none`. */
  countFeedback(rating: string, reasons: readonly string[]): void {
    for (const reason of reasons.length ? reasons : ['none']) this.feedback.inc({ rating, reason });
  }

  /** A chat that failed outside the answer (e.g. the database), so no answer duration was measured. */
  countChatError(code: string): void {
    this.chatErrors.inc({ code });
  }
}

/** `/conversations/:id`, not the id itself, so the series stay few; a catch-all (`/{*path}`) is unmatched. */
function routeTemplate(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (typeof route?.path !== 'string' || route.path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl}${route.path}`;
}

function errorCode(error: unknown): string {
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return 'aborted';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : 'internal';
}

/** RequestMetrics for every module of the process (the API and the workers). */
@Global()
@Module({ providers: [RequestMetrics], exports: [RequestMetrics] })
export class RequestMetricsModule {}
