import { Worker } from 'node:worker_threads';

interface Pending {
  resolve(vectors: number[][]): void;
  reject(error: Error): void;
}

type Reply = { id: number; flat: Float32Array } | { id: number; error: string };

export interface ModelThreadOptions {
  /** Plain JavaScript (no build step) run with `eval`: answers `{ id, texts }` with `{ id, flat }` or `{ id, error }`. */
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
  request(payload: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<number[][]> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<number[][]>((resolve, reject) => {
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
      const vectors: number[][] = [];
      for (let offset = 0; offset < reply.flat.length; offset += dimension) {
        vectors.push(Array.from(reply.flat.subarray(offset, offset + dimension)));
      }
      waiting.resolve(vectors);
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
