/**
 * A chat model's request failed. What the answer logic needs to tell apart is whether the model ran out of
 * time (`timeout`: the answer stops with llm_timeout) or failed otherwise; adapters subclass it with what
 * their endpoint reports (status, retries).
 */
export class CompletionError extends Error {
  readonly #timeout: boolean;

  constructor(message: string, options: { timeout?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CompletionError';
    this.#timeout = options.timeout ?? false;
  }

  /** The request ran out of time. */
  get timeout(): boolean {
    return this.#timeout;
  }
}
