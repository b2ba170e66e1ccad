/**
 * The browser tests' script for the scripted OpenAI-compatible server (real HTTP on 127.0.0.1, so the
 * server's own `openai` client, timeouts and streaming are what the tests exercise). It recognises the
 * server's prompts (query expansion, HyDE, standalone rewrite, grounded answer, general knowledge) and
 * answers each deterministically:
 *
 * - a grounded answer quotes the sentence of the numbered passage that shares the most words with the
 *   question, citing it as [n]; when no passage shares two content words it begins with the not-found
 *   sentence (the prompt's rule 3); a Chinese question (its words: character pairs) gets a Chinese answer;
 * - a question containing "step by step" streams slowly (for the Stop button);
 * - a question asking for an answer "as a list" gets a Markdown answer (a list with citations, a
 *   link, a code block) that also carries hostile HTML and a javascript: link, for the renderer.
 *
 * The server's GET /__requests lists what was asked (`loggedRequests` reads it as kind and question),
 * POST /__reset forgets it.
 */
import { completion, ScriptedOpenAiServer } from './testing-llm';
import type { RecordedRequest, ScriptedReply, ScriptHandler } from './testing-llm';

export const NOT_FOUND = 'The provided documents do not contain enough information to answer this question.';
export const GENERAL_ANSWER_PREFIX = 'From general knowledge:';

export type RequestKind =
  'expansion' | 'hyde' | 'rewrite' | 'rerank' | 'answer' | 'general' | 'generate' | 'other';

export interface LoggedRequest {
  kind: RequestKind;
  question: string;
  stream: boolean;
  at: number;
}

interface Message {
  role: string;
  content: string;
}

const STOP_WORDS = new Set(
  'a an and are as at be by do does for from has have how in is it its many much of on or that the their this to was were what when where which who why will with you your'.split(
    ' ',
  ),
);

const HAN = /\p{Script=Han}/u;

/** Content words; a run of Chinese characters (written without spaces) counts as its character pairs. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).flatMap((word) => {
    if (HAN.test(word)) {
      const chars = [...word];
      return chars.slice(1).map((char, index) => chars[index] + char);
    }
    return word.length > 2 && !STOP_WORDS.has(word) ? [word] : [];
  });
}

export function classify(messages: Message[]): RequestKind {
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  if (system.includes('{"queries"')) return 'expansion';
  if (system.startsWith('Write one passage of about')) return 'hyde';
  if (system.startsWith('Rewrite the last question')) return 'rewrite';
  if (system.startsWith('You rank passages')) return 'rerank';
  if (system.startsWith('You write evaluation questions')) return 'generate';
  if (system.includes('general knowledge')) return 'general';
  if (system.includes('numbered passages')) return 'answer';
  return 'other';
}

function lastUser(messages: Message[]): string {
  return [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

function questionOf(kind: RequestKind, user: string): string {
  if (kind === 'expansion') return user.replace(/^Search query:\s*/, '');
  if (kind === 'hyde') return user.replace(/^Question:\s*/, '');
  if (kind === 'rewrite') return /Last question:\s*([\s\S]*)$/.exec(user)?.[1]?.trim() ?? user;
  if (kind === 'answer')
    return /\nQuestion:\s*([\s\S]*?)(?:\n\(In the context|$)/.exec(user)?.[1]?.trim() ?? user;
  return user;
}

interface Passage {
  number: number;
  text: string;
}

function passagesOf(user: string): Passage[] {
  const out: Passage[] = [];
  for (const match of user.matchAll(/<passage number="(\d+)"[^>]*>\n([\s\S]*?)\n<\/passage>/g)) {
    out.push({ number: Number(match[1]), text: match[2] });
  }
  return out;
}

/** A Markdown answer: what the chat must render as a list and a code block, and never as HTML. */
export const MARKDOWN_ANSWER = [
  'Report a lost laptop **at once**:',
  '',
  '- Tell the *security desk* [1].',
  '- Read <https://example.com/lost-laptop> and never [this link](javascript:window.__xss=1).',
  '',
  'Then run:',
  '',
  '```sh',
  'lumina-report --lost "<script>window.__xss=2</script>"',
  '```',
  '',
  'Shown as text: <script>window.__xss=3</script> <img src=x onerror="window.__xss=4">',
].join('\n');

/** The grounded answer a careful model would give from these passages. */
export function groundedAnswer(question: string, passages: Passage[]): string {
  const wanted = new Set(words(question));
  let best: { passage: Passage; sentence: string; shared: number } | null = null;
  for (const passage of passages) {
    for (const sentence of passage.text.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
      const shared = new Set(words(sentence).filter((word) => wanted.has(word))).size;
      if (shared >= 2 && (!best || shared > best.shared))
        best = { passage, sentence: sentence.trim(), shared };
    }
  }
  if (!best) return `${NOT_FOUND} The passages do not mention it.`;
  if (HAN.test(question)) {
    return `根据文档，${best.sentence.replace(/[。！？]+$/, '')} [${best.passage.number}]。`;
  }
  const sentence = best.sentence.replace(/[.!?]+$/, '');
  return `According to the documents, ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)} [${best.passage.number}].`;
}

function reply(kind: RequestKind, messages: Message[], question: string): string {
  const user = lastUser(messages);
  switch (kind) {
    case 'expansion': {
      const count = Number(/exactly (\d+) different/.exec(messages[0]?.content ?? '')?.[1] ?? 3);
      const variants = [
        `${question} policy details`,
        `rules about ${question.replace(/\?$/, '')}`,
        `handbook section on ${question.replace(/\?$/, '')}`,
        `${question} explained`,
        `${question} entitlement`,
      ].slice(0, count);
      return JSON.stringify({ queries: variants });
    }
    case 'hyde':
      return `The staff handbook answers this: ${question.replace(/\?$/, '')}. Every employee receives a fixed number of paid days each calendar year, as the leave section describes.`;
    case 'rewrite':
      return question;
    case 'rerank': {
      const n = (user.match(/^\[\d+\]/gm) ?? []).length || 1;
      return JSON.stringify(Array.from({ length: n }, (_, index) => index + 1));
    }
    case 'general':
      return `${GENERAL_ANSWER_PREFIX} Ulaanbaatar is the capital of Mongolia.`;
    case 'generate': {
      const section = /Section:\s*([^\n]+)/.exec(user)?.[1]?.split('›').pop()?.trim() || 'this topic';
      const sentence =
        user
          .trim()
          .split('\n')
          .pop()
          ?.split(/(?<=[.!?])\s+/)[0] ?? '';
      return JSON.stringify({
        question: `What does the handbook say about ${section.toLowerCase()}?`,
        answer: sentence,
      });
    }
    case 'answer':
      return /\bas a list\b/i.test(question) ? MARKDOWN_ANSWER : groundedAnswer(question, passagesOf(user));
    default:
      return 'scripted answer';
  }
}

/** Splits text into small pieces, as a model streams tokens. */
function pieces(text: string, size: number): string[] {
  const parts = text.match(/\S+\s*/g) ?? [text];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += size) out.push(parts.slice(i, i + size).join(''));
  return out;
}

const E2E_USAGE = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };

const isChat = (request: RecordedRequest) =>
  request.path.endsWith('/chat/completions') && request.body.unparsable === undefined;

function messagesOf(request: RecordedRequest): Message[] {
  return (request.body.messages as Message[] | undefined) ?? [];
}

/** The answers of the browser tests' model, streamed a couple of words at a time (slowly when asked to). */
export const handbookScript: ScriptHandler = (request): ScriptedReply => {
  if (!request.path.endsWith('/chat/completions'))
    return { status: 404, json: { error: { message: `no script for ${request.path}` } } };
  if (!isChat(request)) return { status: 400, raw: '' };
  const messages = messagesOf(request);
  const kind = classify(messages);
  const question = questionOf(kind, lastUser(messages));
  const text = reply(kind, messages, question);
  if (!request.body.stream) return completion(text, String(request.body.model ?? 'scripted'), E2E_USAGE);
  const slow = /step by step/i.test(question);
  return {
    stream: slow
      ? pieces(`${text} ${'Then it continues with more detail. '.repeat(30)}`, 1)
      : pieces(text, 2),
    streamDelayMs: slow ? 150 : 70,
    usage: null,
  };
};

/** The chat requests the server recorded, as what was asked: the kind of prompt and its question. */
export function loggedRequests(recorded: RecordedRequest[]): LoggedRequest[] {
  return recorded.filter(isChat).map((request) => {
    const messages = messagesOf(request);
    const kind = classify(messages);
    return {
      kind,
      question: questionOf(kind, lastUser(messages)),
      stream: request.body.stream === true,
      at: request.at,
    };
  });
}

/** The scripted model of the browser tests, on 127.0.0.1. */
export function startScriptedLlm(): Promise<ScriptedOpenAiServer> {
  return ScriptedOpenAiServer.start({ script: handbookScript });
}
