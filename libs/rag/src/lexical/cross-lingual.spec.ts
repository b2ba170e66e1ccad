import { crossLingualWarning } from './cross-lingual';

describe('crossLingualWarning', () => {
  it('says plainly that a question in a language no document is in needs a multilingual embedder', () => {
    const warning = crossLingualWarning('zh', ['en', 'de'], false);
    expect(warning).toMatch(/looks like zh and no document is in zh \(documents: de, en\)/);
    expect(warning).toMatch(/needs a multilingual embedder/);
  });

  it('stays silent when a document shares the language, the language is unknown or the corpus is empty', () => {
    expect(crossLingualWarning('zh', ['en', 'zh'], false)).toBeNull();
    expect(crossLingualWarning(null, ['en'], false)).toBeNull();
    expect(crossLingualWarning('zh', [], false)).toBeNull();
  });

  it('stays silent when the dense branch searches with a multilingual embedder', () => {
    expect(crossLingualWarning('zh', ['en'], true)).toBeNull();
  });
});
