import { CompletionError, LlmHydeGenerator, LlmQueryExpander } from '@lumina/rag';
import { withRealModel } from '../test/helpers/real-model';
import { LocalChatModel } from './local-chat-model';
import { SMOLLM2_135M_INSTRUCT } from './local-models/catalogue';
import { modelState } from './local-models/model-files';

const { describe: describeWithModel, modelsDir: MODELS_DIR } = withRealModel(SMOLLM2_135M_INSTRUCT);

// One llama.cpp thread: these tests run beside another test lane on two cores, where two threads that
// wait on each other took 105 s of a 120 s deadline for one HyDE passage.
const options = {
  modelsDir: MODELS_DIR,
  threads: 1,
  sequences: 2,
  contextSize: 1024,
  maxTokens: 256,
  timeoutMs: 120_000,
};
const ask = (content: string) => [
  { role: 'system' as const, content: 'You answer in one short sentence.' },
  { role: 'user' as const, content },
];

describeWithModel('LocalChatModel with SmolLM2-135M-Instruct (the real model from MODELS_DIR)', () => {
  jest.setTimeout(180_000);
  const model = new LocalChatModel(SMOLLM2_135M_INSTRUCT, options);
  afterAll(() => model.close());

  it('loads on first use and answers with text and token usage; /health learns its load time', async () => {
    expect(model.status()).toMatchObject({ model: SMOLLM2_135M_INSTRUCT.id, loadMs: null, sequences: 2 });
    const answer = await model.complete({ messages: ask('What is the capital of France?'), maxTokens: 48 });
    expect(answer.model).toBe('local/smollm2-135m-instruct-q4');
    expect(answer.text.trim().length).toBeGreaterThan(0);
    expect(answer.usage?.promptTokens).toBeGreaterThan(5);
    expect(answer.usage?.completionTokens).toBeGreaterThan(0);
    expect(answer.usage?.completionTokens).toBeLessThanOrEqual(48);
    expect(model.status().loadMs).toBeGreaterThan(0);
    expect(modelState(MODELS_DIR, SMOLLM2_135M_INSTRUCT).files[0]).toMatchObject({
      ok: true,
      sha256: model.status().sha256,
    });
  });

  it('answers more requests than it has sequences: each waits for a free one, none is lost or mixed up', async () => {
    const questions = ['Name a colour.', 'Name a fruit.', 'Name an animal.'];
    const answers = await Promise.all(
      questions.map((question) => model.complete({ messages: ask(question), maxTokens: 16 })),
    );
    for (const answer of answers) expect(answer.text.trim().length).toBeGreaterThan(0);
  });

  it('streams tokens, then the usage', async () => {
    const events = [];
    for await (const event of model.stream({ messages: ask('Say hello.'), maxTokens: 16 }))
      events.push(event);
    expect(events.length).toBeGreaterThan(1);
    expect(events.slice(0, -1).every((event) => event.type === 'token')).toBe(true);
    expect(events.at(-1)?.type).toBe('usage');
  });

  it("stops on the caller's abort with its reason, and the next request is answered", async () => {
    const controller = new AbortController();
    const reason = new Error('the search was cancelled');
    const running = model.complete({ messages: ask('Write a long story.'), signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(running).rejects.toBe(reason);
    const next = await model.complete({ messages: ask('Name a colour.'), maxTokens: 8 });
    expect(next.text.trim().length).toBeGreaterThan(0);
  });

  it('gives up after its time with a CompletionError marked as a timeout', async () => {
    const hurried = new LocalChatModel(SMOLLM2_135M_INSTRUCT, { ...options, timeoutMs: 1 });
    try {
      const failure = await hurried
        .complete({ messages: ask('Write a long story.') })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CompletionError);
      expect((failure as CompletionError).timeout).toBe(true);
      expect((failure as Error).message).toBe('the local model took longer than 1 ms');
    } finally {
      await hurried.close();
    }
  });

  it('closes in the middle of a generation without taking the process down; the caller hears why', async () => {
    const closing = new LocalChatModel(SMOLLM2_135M_INSTRUCT, options);
    const stream = closing.stream({ messages: ask('Write a long story about a lighthouse.') });
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'token' });
    await closing.close();
    const rest = (async () => {
      for (let next = await events.next(); !next.done; next = await events.next());
    })();
    await expect(rest).rejects.toThrow(/the local model (failed|'s thread stopped)/);
    // The process is still here, and the model starts again on the next request.
    expect((await closing.complete({ messages: ask('Name a colour.'), maxTokens: 8 })).text.trim()).not.toBe(
      '',
    );
    await closing.close();
  });

  it('writes a HyDE passage through the same generator an endpoint uses', async () => {
    const hyde = new LlmHydeGenerator(model);
    const passage = await hyde.generate(
      'Does vitamin D supplementation reduce fractures in older adults?',
      new AbortController().signal,
    );
    expect(hyde.modelId).toBe('local/smollm2-135m-instruct-q4/hyde-v1');
    expect(passage.split(/\s+/).length).toBeGreaterThan(10);
  });

  it('holds an answer to the lines asked for (a grammar), and the expander reads variants from them', async () => {
    const answer = await model.complete({
      messages: [{ role: 'user', content: 'List ten colours, one per line.' }],
      lines: 2,
      maxTokens: 96,
    });
    // At most the two lines asked for (fewer when the second repeats the first), though ten were asked.
    expect(answer.text.trim()).not.toBe('');
    const lines = answer.text.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(2);
    const expander = new LlmQueryExpander(model, { format: 'lines' });
    const variants = await expander.expand(
      'Does vitamin D supplementation reduce fractures in older adults?',
      3,
      new AbortController().signal,
    );
    expect(expander.modelId).toBe('local/smollm2-135m-instruct-q4/expansion-lines-v1');
    expect(variants.length).toBeGreaterThanOrEqual(1);
    expect(variants.length).toBeLessThanOrEqual(3);
  });
});
