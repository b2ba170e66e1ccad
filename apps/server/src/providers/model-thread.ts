import { Worker } from 'node:worker_threads';

interface Pending {
  resolve(reply: Answer): void;
  reject(error: Error): void;
}

/** `flat`: rows of `dimension` numbers; `result`: any other answer the thread's code sends. */
type Answer = { flat: Float32Array } | { result: unknown };
type Reply = ({ id: number } & Answer) | { id: number; error: string };

export interface ModelThreadOptions {
  /**
   * Plain JavaScript (no build step) run with `eval`: answers `{ id, texts }` (or any message of `request`
   * and `call`) with `{ id, flat }`, `{ id, result }` or `{ id, error }`.
   */
  readonly source: string;
  readonly workerData: Record<string, unknown>;
  readonly dimension: number;
  /** How errors name the model, e.g. "the local embedding model". */
  readonly label: string;
}

/**
 * An embedding model on a thread of its own: model inference is CPU work, and on the main thread it would
 * take turns with HTTP, the job queue and the embedded database. It starts on first use, keeps the process
 * alive only while an answer is awaited, and is started again after a crash.
 */
export class ModelThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly options: ModelThreadOptions) {}

  embed(texts: string[]): Promise<number[][]> {
    return this.request({ texts });
  }

  /**
   * Any message the thread's code reads (it gets `{ id, ...payload }`), answered as rows of `dimension`
   * numbers; `transfer` hands buffers over instead of copying them.
   */
  async request(payload: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<number[][]> {
    const answer = await this.send(payload, transfer);
    if (!('flat' in answer)) throw new Error(`${this.options.label} answered without vectors`);
    const { dimension } = this.options;
    const vectors: number[][] = [];
    for (let offset = 0; offset < answer.flat.length; offset += dimension) {
      vectors.push(Array.from(answer.flat.subarray(offset, offset + dimension)));
    }
    return vectors;
  }

  /** A message answered with `{ id, result }`: the result as the thread sent it. */
  async call<T>(payload: Record<string, unknown>): Promise<T> {
    const answer = await this.send(payload, []);
    if (!('result' in answer)) throw new Error(`${this.options.label} answered without a result`);
    return answer.result as T;
  }

  private send(payload: Record<string, unknown>, transfer: ArrayBuffer[]): Promise<Answer> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // While an answer is awaited the thread keeps the process alive; idle, it never does.
      worker.ref();
      worker.postMessage({ ...payload, id }, transfer);
    });
  }

  private start(): Worker {
    const { source, workerData, dimension, label } = this.options;
    const worker = new Worker(source, { eval: true, workerData: { ...workerData, dimension } });
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in reply) {
        waiting.reject(new Error(`${label} failed: ${reply.error}`));
        return;
      }
      waiting.resolve(reply);
    });
    const fail = (error: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(new Error(`${label}'s thread crashed: ${error.message}`)));
    worker.on('exit', (code) => fail(new Error(`${label}'s thread stopped (exit ${code})`)));
    // After the listeners: attaching a 'message' listener refs the thread again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
