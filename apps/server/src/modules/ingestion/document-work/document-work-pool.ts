import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { startModuleThread } from '../../../common/module-thread';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { WorkReply, WorkRequest } from './document-work.messages';
import type { PrepareRequest, PreparedDocument } from './prepare-document';

const THREAD_MODULE = join(__dirname, 'document-work.thread');

/** Why a thread's task ended without a reply; the thread is gone and is not reused. */
class ThreadLostError extends UnreadableDocumentError {}

/**
 * Parses and chunks documents on worker threads, so that no document — however large, deeply nested or
 * pathological — holds the API's event loop. Each document has a time budget
 * (INGESTION_PARSE_TIMEOUT_SECONDS) and a heap budget (INGESTION_PARSE_MEMORY_MB): past either, its
 * thread is terminated and the document fails with a sentence that says so. Threads start on demand, up
 * to INGESTION_CONCURRENCY and the number of cores; idle ones never keep the process alive.
 */
@Injectable()
export class DocumentWorkPool implements OnApplicationShutdown {
  private readonly logger = new Logger(DocumentWorkPool.name);
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly memoryMb: number;
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private threads = 0;
  private nextId = 0;
  private closed = false;

  constructor(@InjectConfig() env: Env) {
    this.size = Math.max(1, Math.min(env.INGESTION_CONCURRENCY, availableParallelism()));
    this.timeoutMs = env.INGESTION_PARSE_TIMEOUT_SECONDS * 1000;
    this.memoryMb = env.INGESTION_PARSE_MEMORY_MB;
  }

  /** Parse and chunk one document on a pool thread. Rejects with UnreadableDocumentError when it cannot be. */
  async prepare(request: PrepareRequest): Promise<PreparedDocument> {
    const worker = await this.acquire();
    let reusable = false;
    try {
      const prepared = await this.run(worker, request);
      reusable = true;
      return prepared;
    } catch (error) {
      reusable = !(error instanceof ThreadLostError);
      throw error;
    } finally {
      this.release(worker, reusable);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    // Busy threads finish the document they hold (their job is still running) and stop when released.
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private run(worker: Worker, request: PrepareRequest): Promise<PreparedDocument> {
    const id = this.nextId++;
    const seconds = this.timeoutMs / 1000;
    return new Promise<PreparedDocument>((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (reply: WorkReply): void => {
        if ('ready' in reply || reply.id !== id) return;
        settle(() => {
          if ('prepared' in reply) resolve(reply.prepared);
          else if (reply.error.unreadable) reject(new UnreadableDocumentError(reply.error.message));
          // The same bytes fail the same way on every attempt: no retry.
          else
            reject(
              new UnreadableDocumentError(`"${request.name}" could not be read: ${reply.error.message}`),
            );
        });
      };
      const onError = (error: Error & { code?: string }): void => {
        const reason =
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `parsing "${request.name}" needed more than ${this.memoryMb} MB of memory (INGESTION_PARSE_MEMORY_MB); the document was not indexed.`
            : `parsing "${request.name}" crashed its worker thread: ${error.message}`;
        settle(() => reject(new ThreadLostError(reason)));
      };
      const onExit = (code: number): void =>
        settle(() =>
          reject(new ThreadLostError(`parsing "${request.name}" stopped its worker thread (exit ${code})`)),
        );
      const timer = setTimeout(() => {
        settle(() =>
          reject(
            new ThreadLostError(
              `parsing took longer than ${seconds} s (INGESTION_PARSE_TIMEOUT_SECONDS): "${request.name}" was stopped and not indexed.`,
            ),
          ),
        );
        worker
          .terminate()
          .catch((error: unknown) => this.logger.warn(`terminate: ${(error as Error).message}`));
      }, this.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      // A copy of the bytes goes over; the caller keeps its buffer.
      worker.postMessage({ id, request } satisfies WorkRequest);
    });
  }

  private async acquire(): Promise<Worker> {
    for (;;) {
      if (this.closed) throw new Error('the document work pool is shutting down');
      const worker = this.idle.pop();
      if (worker) return worker;
      if (this.threads < this.size) {
        this.threads++;
        try {
          return await this.start();
        } catch (error) {
          this.threads--;
          this.waiting.shift()?.();
          throw error;
        }
      }
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
  }

  private release(worker: Worker, reusable: boolean): void {
    if (reusable && !this.closed) {
      worker.unref();
      this.idle.push(worker);
    } else {
      this.threads--;
      worker.terminate().catch(() => undefined);
    }
    this.waiting.shift()?.();
  }

  /** A new thread, once it has loaded the parsers. */
  private async start(): Promise<Worker> {
    const worker = startModuleThread(THREAD_MODULE, {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
    });
    await new Promise<void>((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (reply: WorkReply): void => {
        if ('ready' in reply) settle(resolve);
      };
      const onError = (error: Error): void =>
        settle(() => reject(new Error(`a document work thread failed to start: ${error.message}`)));
      const onExit = (code: number): void =>
        settle(() => reject(new Error(`a document work thread stopped while starting (exit ${code})`)));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    // A thread that dies while idle is dropped from the pool (a busy one is handled by its task).
    worker.on('exit', () => {
      const index = this.idle.indexOf(worker);
      if (index >= 0) {
        this.idle.splice(index, 1);
        this.threads--;
      }
    });
    worker.unref();
    return worker;
  }
}
