import { citationSchema } from './chat';
import { SOURCES_HEADING } from './conversation-markdown';
import { objectError, typeError, z } from './contract/zod';
import { settingsOverridesSchema } from './settings';

/**
 * The OpenAI-compatible face of the chat: `GET /v1/models` and `POST /v1/chat/completions`, so chat front
 * ends built on the `openai` client (Open WebUI, LibreChat, Continue…) ask Lumina as they would a model.
 * The last user message is the question, earlier user and assistant messages are the conversation, and
 * the answer is the chat's: grounded, with numbered citations and a sources list, or the not-found
 * sentence.
 */

/** The model that asks every collection the key may read; `lumina:<slug>` asks one collection. */
export const OPENAI_LIBRARY_MODEL = 'lumina';

/** The model id of one collection. */
export function collectionModelId(slug: string): string {
  return `${OPENAI_LIBRARY_MODEL}:${slug}`;
}

/** What a model id asks: every readable collection, one collection by slug, or nothing Lumina knows. */
export function parseModelId(model: string): { all: true } | { all: false; slug: string } | null {
  if (model === OPENAI_LIBRARY_MODEL) return { all: true };
  const prefix = `${OPENAI_LIBRARY_MODEL}:`;
  if (model.startsWith(prefix) && model.length > prefix.length) {
    return { all: false, slug: model.slice(prefix.length) };
  }
  return null;
}

/** At most this many messages in one request; only the last ones are the question's context anyway. */
export const MAX_OPENAI_MESSAGES = 500;
/** Longest text of one message, in characters (the question itself is held to MAX_CHAT_MESSAGE_CHARS). */
export const MAX_OPENAI_MESSAGE_CHARS = 100_000;

/** A part of a message's content: text is read, anything else (images, audio, files) is refused. */
const contentPartSchema = z.looseObject({
  type: z.string({ error: 'each content part needs a type, e.g. "text"' }),
  text: z.string().optional(),
});

const messageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function'], {
    error: 'each message role must be one of system, developer, user, assistant',
  }),
  content: z
    .union([z.string().max(MAX_OPENAI_MESSAGE_CHARS), z.array(contentPartSchema).max(100), z.null()], {
      error: `a message's content must be text (at most ${MAX_OPENAI_MESSAGE_CHARS} characters) or a list of text parts`,
    })
    .optional(),
});
export type OpenAiChatMessage = z.infer<typeof messageSchema>;

/** A field a tool-calling client sends; Lumina answers from the documents and calls no tools. */
const present = (value: unknown) =>
  value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/**
 * Body of POST /v1/chat/completions. Unknown fields are accepted and ignored, as are the sampling fields
 * (`temperature`, `top_p`, `max_tokens`, `seed`, `stop`, penalties…): the answer is written by Lumina's
 * own prompt and settings. Tools, function calling, images, audio and `n` above 1 are refused with the
 * reason. `lumina.settings` (an extension) overrides the retrieval settings, as in POST /chat.
 */
export const openAiChatRequestSchema = z
  .looseObject(
    {
      model: z
        .string({ error: typeError('model', 'model must be a string') })
        .min(1, { error: 'model must not be empty: use "lumina" or a model GET /v1/models lists' })
        .max(200, { error: 'model must be at most 200 characters' }),
      messages: z
        .array(messageSchema, { error: typeError('messages', 'messages must be an array of messages') })
        .min(1, { error: 'messages must hold at least one user message' })
        .max(MAX_OPENAI_MESSAGES, { error: `messages must hold at most ${MAX_OPENAI_MESSAGES} messages` }),
      stream: z.boolean({ error: 'stream must be true or false' }).nullable().optional(),
      stream_options: z
        .looseObject({ include_usage: z.boolean().nullable().optional() })
        .nullable()
        .optional(),
      n: z.number().nullable().optional(),
      lumina: z
        .strictObject(
          {
            settings: settingsOverridesSchema.optional(),
          },
          { error: objectError('lumina must be an object: { settings? }') },
        )
        .optional()
        .meta({
          description: 'Lumina extension: retrieval settings (overrides of the defaults), as in POST /chat',
        }),
    },
    { error: objectError('the body must be an object: { model, messages, stream? }') },
  )
  .check(
    z.refine((body) => !present(body['tools']) && !present(body['functions']), {
      error:
        'tools and functions are not supported: Lumina answers from your documents and calls no tools; ' +
        'send the request without tools',
    }),
    z.refine((body) => body.n === undefined || body.n === null || body.n === 1, {
      error: 'n must be 1: Lumina writes one answer per question',
    }),
    z.refine((body) => body.messages.every((message) => !['tool', 'function'].includes(message.role)), {
      error: 'messages with the role tool or function are not supported: Lumina calls no tools',
    }),
    z.refine(
      (body) =>
        body.messages.every(
          (message) =>
            !Array.isArray(message.content) || message.content.every((part) => part.type === 'text'),
        ),
      {
        error:
          'only text content is supported: images, audio and files are not read (Lumina answers from the ' +
          "documents' text); send the question as text",
      },
    ),
  )
  .meta({
    example: {
      model: 'lumina',
      messages: [{ role: 'user', content: 'How do I fail over the database?' }],
      stream: false,
    },
  });
export type OpenAiChatRequest = z.infer<typeof openAiChatRequestSchema>;

/** The text of a message: its string, or its text parts joined. */
export function messageText(message: Pick<OpenAiChatMessage, 'content'>): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}

/** An answer's content without the sources list the endpoint appended (what the chat stored). */
export function contentWithoutSources(content: string): string {
  const at = content.lastIndexOf(`\n\n${SOURCES_HEADING}\n\n`);
  return at === -1 ? content : content.slice(0, at);
}

/** One model of GET /v1/models. */
export const openAiModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  /** Unix seconds: the collection's creation (the server's start for `lumina`). */
  created: z.number(),
  owned_by: z.string(),
  /** Extension: what the model asks. */
  lumina: z.object({
    collectionId: z.string().nullable(),
    name: z.string(),
    description: z.string(),
  }),
});
export type OpenAiModel = z.infer<typeof openAiModelSchema>;

export const openAiModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(openAiModelSchema),
});
export type OpenAiModelList = z.infer<typeof openAiModelListSchema>;

export const openAiUsageSchema = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});
export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;

/** Extension field of a completion (and of a stream's last chunk): the answer's structure. */
export const luminaCompletionSchema = z.object({
  conversationId: z.string(),
  messageId: z.string(),
  /** Where the retrieval trace of the answer is read (with the same key). */
  trace: z.string(),
  notFound: z.boolean(),
  generator: z.string(),
  citations: z.array(citationSchema),
  /** The question as it was searched (rewritten with the conversation for a follow-up). */
  standaloneQuery: z.string(),
});
export type LuminaCompletion = z.infer<typeof luminaCompletionSchema>;

/** The answer of POST /v1/chat/completions without `stream`. */
export const openAiChatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      finish_reason: z.literal('stop'),
      logprobs: z.null(),
    }),
  ),
  /** The language model's tokens; 0 when no model wrote the answer (extractive, not found). */
  usage: openAiUsageSchema,
  lumina: luminaCompletionSchema,
});
export type OpenAiChatCompletion = z.infer<typeof openAiChatCompletionSchema>;

/** One `data:` chunk of a streamed completion. */
export interface OpenAiChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: 'assistant'; content?: string };
    finish_reason: 'stop' | null;
    logprobs: null;
  }[];
  usage?: OpenAiUsage | null;
  lumina?: LuminaCompletion;
}

/** The error body of the /v1 routes, as OpenAI clients read it. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}
