import { withoutFramingWords } from './framing-words';

describe('withoutFramingWords', () => {
  it('drops an opening instruction and phrases that ask for a form of answer', () => {
    expect(withoutFramingWords('Explain the laptop policy step by step.')).toBe('the laptop policy .');
    expect(withoutFramingWords('Could you please describe how retries work in detail?')).toBe(
      'how retries work ?',
    );
    expect(withoutFramingWords('Tell me about the vacation rules')).toBe('the vacation rules');
    expect(withoutFramingWords('walk me through step-by-step installation')).toBe('installation');
  });

  it('knows the same openings in German, Spanish, French and Chinese', () => {
    expect(withoutFramingWords('Bitte erkläre mir Schritt für Schritt die Installation')).toBe(
      'die Installation',
    );
    expect(withoutFramingWords('Explícame paso a paso la instalación')).toBe('la instalación');
    expect(withoutFramingWords("Explique-moi l'installation étape par étape")).toBe("l'installation");
    expect(withoutFramingWords('请详细解释一下第50届超级碗的比赛结果')).toBe('第50届超级碗的比赛结果');
  });

  it('leaves content words alone, even when they look like instructions', () => {
    expect(withoutFramingWords('what are the default summary percentiles')).toBe(
      'what are the default summary percentiles',
    );
    expect(withoutFramingWords('How do I show the PDF outline?')).toBe('How do I show the PDF outline?');
    expect(withoutFramingWords('Which fields does describeTable return?')).toBe(
      'Which fields does describeTable return?',
    );
    expect(withoutFramingWords('explainer video length')).toBe('explainer video length');
    expect(withoutFramingWords('如何重试失败的HTTP请求')).toBe('如何重试失败的HTTP请求');
  });

  it('keeps the question when nothing else would be left', () => {
    expect(withoutFramingWords('Explain step by step.')).toBe('Explain step by step.');
    expect(withoutFramingWords('请解释')).toBe('请解释');
  });
});
