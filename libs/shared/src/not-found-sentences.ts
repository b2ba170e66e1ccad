import { NOT_FOUND_SENTENCE } from './chat';

/**
 * NOT_FOUND_SENTENCE in the languages questions are asked in, by ISO 639-1 code: the one fixed
 * sentence an answer starts with when the documents do not answer, in the question's language. Clients
 * and libs/rag's startsWithNotFound match on each of them; never reword one.
 */
export const NOT_FOUND_SENTENCES: Readonly<Record<string, string>> = Object.freeze({
  en: NOT_FOUND_SENTENCE,
  de: 'Die bereitgestellten Dokumente enthalten nicht genug Informationen, um diese Frage zu beantworten.',
  es: 'Los documentos proporcionados no contienen suficiente información para responder a esta pregunta.',
  fr: "Les documents fournis ne contiennent pas assez d'informations pour répondre à cette question.",
  it: 'I documenti forniti non contengono informazioni sufficienti per rispondere a questa domanda.',
  pt: 'Os documentos fornecidos não contêm informações suficientes para responder a esta pergunta.',
  nl: 'De verstrekte documenten bevatten niet genoeg informatie om deze vraag te beantwoorden.',
  pl: 'Dostarczone dokumenty nie zawierają wystarczających informacji, aby odpowiedzieć na to pytanie.',
  tr: 'Sağlanan belgeler bu soruyu yanıtlamak için yeterli bilgi içermiyor.',
  vi: 'Các tài liệu được cung cấp không chứa đủ thông tin để trả lời câu hỏi này.',
  ru: 'Предоставленные документы не содержат достаточно информации, чтобы ответить на этот вопрос.',
  ar: 'لا تحتوي المستندات المقدمة على معلومات كافية للإجابة عن هذا السؤال.',
  hi: 'दिए गए दस्तावेज़ों में इस प्रश्न का उत्तर देने के लिए पर्याप्त जानकारी नहीं है।',
  zh: '所提供的文档没有足够的信息来回答这个问题。',
  ja: '提供された文書には、この質問に答えるのに十分な情報がありません。',
  ko: '제공된 문서에는 이 질문에 답할 만큼 충분한 정보가 없습니다.',
  th: 'เอกสารที่ให้มาไม่มีข้อมูลเพียงพอที่จะตอบคำถามนี้',
});

/**
 * The not-found sentence for a question in `language` (an ISO 639-1 code, a tag such as `pt-BR`, or
 * null when it could not be told): that language's sentence, English when there is none.
 */
export function notFoundSentence(language: string | null | undefined): string {
  const base = language?.toLowerCase().split(/[-_]/)[0];
  return (base && NOT_FOUND_SENTENCES[base]) || NOT_FOUND_SENTENCE;
}
