import type { RecordedRequest, ScriptedReply } from './scripted-openai-server';

/** Token counts as the OpenAI API reports them. */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A chat completion JSON body with `text` as the assistant message. */
export function completion(
  text: string,
  model = 'scripted',
  usage: TokenUsage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
): ScriptedReply {
  return {
    json: {
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    },
  };
}

/** What the server answers when no script does. */
export function defaultReply(request: RecordedRequest): ScriptedReply {
  if (request.path.endsWith('/chat/completions')) {
    return request.body.stream ? { stream: ['scripted ', 'answer'] } : completion('scripted answer');
  }
  if (request.path.endsWith('/embeddings')) {
    const input = request.body.input;
    const texts = Array.isArray(input) ? input : [input];
    const dimensions = Number(request.body.dimensions ?? 8);
    return {
      json: {
        object: 'list',
        model: request.body.model,
        data: texts.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: fakeVector(String(text), dimensions),
        })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    };
  }
  if (request.path.endsWith('/rerank')) {
    const documents = (request.body.documents as unknown[]) ?? [];
    return {
      json: { results: documents.map((_, index) => ({ index, relevance_score: 1 / (index + 1) })) },
    };
  }
  return { status: 404, json: { error: { message: `no script for ${request.path}` } } };
}

/** A deterministic vector from the text's characters (same text, same vector). */
export function fakeVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let i = 0; i < text.length; i++) vector[(text.charCodeAt(i) * 31 + i) % dimensions] += 1;
  return vector;
}
