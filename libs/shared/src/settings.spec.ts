import { DEFAULT_SETTINGS, resolveSettings } from './settings';

describe('resolveSettings', () => {
  it('returns the defaults when nothing is overridden', () => {
    expect(resolveSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('applies overrides and ignores keys set to undefined', () => {
    const settings = resolveSettings({ ranker: 'hybrid', topK: 10, enableHyDE: undefined });
    expect(settings.ranker).toBe('hybrid');
    expect(settings.topK).toBe(10);
    expect(settings.enableHyDE).toBe(DEFAULT_SETTINGS.enableHyDE);
  });

  it('never shares the document filter array with the defaults or the caller', () => {
    const ids = ['a'];
    const settings = resolveSettings({ documentIds: ids });
    settings.documentIds.push('b');
    expect(ids).toEqual(['a']);
    expect(resolveSettings().documentIds).toEqual([]);
    expect(DEFAULT_SETTINGS.documentIds).toEqual([]);
  });
});
