import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const SUFFIXES = ['evidence', 'mechanism', 'clinical study results', 'risk factors', 'outcomes', 'review'];

/**
 * A stand-in OpenAI-compatible chat endpoint for benchmarks: answers every /v1/chat/completions
 * request after a fixed latency, with query variants (as JSON) for the expansion prompt and a ~100-word
 * passage for the HyDE prompt, both made from the query. Real HTTP on 127.0.0.1, so the app's chat
 * model adapter and `openai` client are part of what is measured. Counts calls and how many overlap.
 */
export class ScriptedLlmServer {
  calls = 0;
  maxInFlight = 0;
  baseUrl = '';
  private inFlight = 0;
  private readonly server: Server = createServer((req, res) => this.handle(req, res));

  private constructor(private readonly latencyMs: number) {}

  static async start(latencyMs: number): Promise<ScriptedLlmServer> {
    const instance = new ScriptedLlmServer(latencyMs);
    await new Promise<void>((resolve) => instance.server.listen(0, '127.0.0.1', resolve));
    const { port } = instance.server.address() as AddressInfo;
    instance.baseUrl = `http://127.0.0.1:${port}/v1`;
    return instance;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.calls += 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      setTimeout(() => {
        this.inFlight -= 1;
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          model?: string;
          messages?: { content: string }[];
          stream?: boolean;
        };
        if (body.stream) return streamAnswer(res, body.model ?? 'scripted', answer(body.messages ?? []));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-bench',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? 'scripted',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: answer(body.messages ?? []) },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 50, completion_tokens: 100, total_tokens: 150 },
          }),
        );
      }, this.latencyMs);
    });
  }
}

function answer(messages: { content: string }[]): string {
  const system = messages[0]?.content ?? '';
  const user = messages[messages.length - 1]?.content ?? '';
  const query = user.replace(/^(Search query|Question):\s*/, '');
  const count = Number(/exactly (\d+) different/.exec(system)?.[1] ?? 0);
  if (count > 0) {
    return JSON.stringify({ queries: SUFFIXES.slice(0, count).map((suffix) => `${query} ${suffix}`) });
  }
  return (
    `${query}. Several studies have examined this question in cohorts and controlled trials. ` +
    `The findings indicate that ${query.toLowerCase()} depends on the underlying mechanism, the ` +
    'population studied and the measured outcome. In a randomized trial, patients receiving the ' +
    'intervention showed a significant change compared with controls, and a meta-analysis of ' +
    'observational data reported a consistent association after adjustment for confounders. ' +
    'Experimental work in cell lines and animal models supports a causal role.'
  );
}

/** The same answer as a chat-completions event stream (what /chat asks for), a few words per chunk. */
function streamAnswer(res: ServerResponse, model: string, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const words = text.split(/(?<= )/);
  for (let i = 0; i < words.length; i += 8) {
    const delta = { content: words.slice(i, i + 8).join('') };
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
    );
  }
  res.write(
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
  );
  const usage = { prompt_tokens: 50, completion_tokens: 100, total_tokens: 150 };
  res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}
