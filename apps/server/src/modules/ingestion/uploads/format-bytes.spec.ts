import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [900, '900 bytes'],
    [1536, '1.5 KB'],
    [50 * 1024 * 1024, '50 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
