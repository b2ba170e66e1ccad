import { nextSearch, pageFromParam } from './url-state';

describe('pageFromParam', () => {
  it('reads positive whole numbers and falls back to 1 for anything else', () => {
    expect(pageFromParam('3')).toBe(3);
    expect(pageFromParam(null)).toBe(1);
    expect(pageFromParam('0')).toBe(1);
    expect(pageFromParam('-2')).toBe(1);
    expect(pageFromParam('2.5')).toBe(1);
    expect(pageFromParam('abc')).toBe(1);
    expect(pageFromParam('99999999999')).toBe(1);
  });
});

describe('nextSearch', () => {
  it('sets, replaces and removes parameters, keeping the others', () => {
    expect(nextSearch('', { page: 2 })).toBe('?page=2');
    expect(nextSearch('?page=2&scope=false', { page: 3 })).toBe('?page=3&scope=false');
    expect(nextSearch('?page=2&scope=false', { scope: '' })).toBe('?page=2');
    expect(nextSearch('?chunk=x', { page: 4 })).toBe('?chunk=x&page=4');
  });

  it('leaves out a value equal to its default, so the first page has a plain address', () => {
    expect(nextSearch('?page=2', { page: 1 }, { page: '1' })).toBe('');
    expect(nextSearch('?q=wal&page=2', { q: 'a b', page: 1 }, { page: '1' })).toBe('?q=a+b');
  });
});
