import { formatLanguageCounts } from './language-counts';

describe('formatLanguageCounts', () => {
  it('lists the languages largest first, each with its share of the documents', () => {
    expect(formatLanguageCounts({ fr: 3, en: 3629, es: 1 })).toBe(
      'en 3,629 (99.9%), fr 3 (0.1%), es 1 (0.0%)',
    );
  });

  it('breaks ties by language code and says none for an empty index', () => {
    expect(formatLanguageCounts({ zh: 2, de: 2 })).toBe('de 2 (50.0%), zh 2 (50.0%)');
    expect(formatLanguageCounts({})).toBe('none');
  });
});
