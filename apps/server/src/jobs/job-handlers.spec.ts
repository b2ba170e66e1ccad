import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Job } from 'bullmq';
import { JobName } from './job-catalogue';
import { JobHandlerRegistry } from './job-handler-registry';
import { assertJobHandlers, handlerFor, isJobNamed } from './job-handlers';
import type { JobHandlers } from './job-handlers';
import { QueueName } from './queue-name.enum';

const noop = () => Promise.resolve(undefined);

const INGESTION: JobHandlers<QueueName.Ingestion> = {
  [JobName.IngestDocument]: noop,
  [JobName.ReembedChunks]: noop,
  [JobName.DeleteCollection]: noop,
};

const EVALUATION: JobHandlers<QueueName.Evaluation> = {
  [JobName.GenerateQuestions]: noop,
  [JobName.EvaluateBank]: noop,
  [JobName.EvaluateAblation]: noop,
  [JobName.FitReranker]: noop,
};

const SOURCES: JobHandlers<QueueName.Sources> = { [JobName.SyncSource]: noop };

// The handler maps are typed from the catalogue: a missing job or another queue's job does not compile.
// @ts-expect-error the re-embed job has no handler
const missing: JobHandlers<QueueName.Ingestion> = { [JobName.IngestDocument]: noop };
const foreign: JobHandlers<QueueName.Ingestion> = {
  ...INGESTION,
  // @ts-expect-error evaluation runs are not on the ingestion queue
  [JobName.EvaluateBank]: noop,
};
void missing;
void foreign;

describe('assertJobHandlers', () => {
  const registration = (queue: QueueName, handlers: object) => ({ queue, names: Object.keys(handlers) });

  it('accepts one handler per job of the catalogue, on its queue', () => {
    expect(() =>
      assertJobHandlers([
        registration(QueueName.Ingestion, INGESTION),
        registration(QueueName.Evaluation, EVALUATION),
        registration(QueueName.Sources, SOURCES),
      ]),
    ).not.toThrow();
  });

  it('checks nothing in a process without processors', () => {
    expect(() => assertJobHandlers([])).not.toThrow();
  });

  it('names a job without a handler, a job handled twice and a handler for an unknown job', () => {
    const { [JobName.ReembedChunks]: _reembed, ...withoutReembed } = INGESTION;
    expect(() =>
      assertJobHandlers([
        registration(QueueName.Ingestion, { ...withoutReembed, 'shred-documents': noop }),
        registration(QueueName.Evaluation, EVALUATION),
        registration(QueueName.Evaluation, { [JobName.EvaluateBank]: noop }),
        registration(QueueName.Sources, SOURCES),
      ]),
    ).toThrow(
      'The job handlers do not match the job catalogue (jobs/job-catalogue.ts): ' +
        'the ingestion queue has a handler for "shred-documents", which is not in the job catalogue; ' +
        'no processor handles "reembed-chunks" (ingestion queue); "evaluate-bank" has 2 handlers.',
    );
  });

  it('names a handler on another queue than the catalogue says', () => {
    expect(() =>
      assertJobHandlers([
        registration(QueueName.Ingestion, { ...INGESTION, [JobName.GenerateQuestions]: noop }),
        registration(QueueName.Evaluation, {
          [JobName.EvaluateBank]: noop,
          [JobName.EvaluateAblation]: noop,
        }),
      ]),
    ).toThrow(
      '"generate-questions" is handled on the ingestion queue, but the catalogue puts it on evaluation',
    );
  });
});

describe('handlerFor', () => {
  it('finds a handler by job name, and none for a name the queue does not have', () => {
    expect(handlerFor(INGESTION, JobName.IngestDocument)).toBe(noop);
    expect(handlerFor(INGESTION, JobName.EvaluateBank)).toBeNull();
    expect(handlerFor(INGESTION, 'toString')).toBeNull();
  });

  it('narrows a job to its payload by name', () => {
    const job = { name: JobName.IngestDocument, data: { documentId: 'd1' } } as Job;
    expect(isJobNamed(job, JobName.IngestDocument) && job.data.documentId).toBe('d1');
    expect(isJobNamed(job, JobName.ReembedChunks)).toBe(false);
    expect(isJobNamed(undefined, JobName.IngestDocument)).toBe(false);
  });
});

describe('JobHandlerRegistry at boot', () => {
  @Injectable()
  class IngestionOnly {
    constructor(registry: JobHandlerRegistry) {
      registry.register(QueueName.Ingestion, INGESTION);
    }
  }

  @Injectable()
  class Evaluation {
    constructor(registry: JobHandlerRegistry) {
      registry.register(QueueName.Evaluation, EVALUATION);
      registry.register(QueueName.Sources, SOURCES);
    }
  }

  const boot = (providers: (typeof IngestionOnly)[]) => {
    @Module({ providers: [JobHandlerRegistry, ...providers] })
    class ProcessorsModule {}
    return NestFactory.createApplicationContext(ProcessorsModule, { abortOnError: false, logger: false });
  };

  it('refuses to start when a job of the catalogue has no handler', async () => {
    await expect(boot([IngestionOnly])).rejects.toThrow(
      /no processor handles "generate-questions" \(evaluation queue\); no processor handles "evaluate-bank"/,
    );
  });

  it('starts when every job has its handler', async () => {
    const context = await boot([IngestionOnly, Evaluation]);
    expect(context.get(JobHandlerRegistry)).toBeInstanceOf(JobHandlerRegistry);
    await context.close();
  });
});
