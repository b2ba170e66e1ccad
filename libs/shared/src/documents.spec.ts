import { headingsAfterTitle } from './documents';

describe('headingsAfterTitle', () => {
  it('drops a first heading that repeats the title', () => {
    expect(headingsAfterTitle('Staff Handbook', ['Staff Handbook', 'Leave', 'Vacation'])).toEqual([
      'Leave',
      'Vacation',
    ]);
    expect(headingsAfterTitle(' staff handbook', ['Staff Handbook '])).toEqual([]);
  });

  it('keeps the path when the title is the file name or a different heading', () => {
    expect(headingsAfterTitle('staff-handbook', ['Staff Handbook', 'Leave'])).toEqual([
      'Staff Handbook',
      'Leave',
    ]);
    expect(headingsAfterTitle('第50届超级碗', ['比赛结果'])).toEqual(['比赛结果']);
    expect(headingsAfterTitle('Guide', [])).toEqual([]);
  });

  it('drops only the first heading, never a later one with the same words', () => {
    expect(headingsAfterTitle('Setup', ['Install', 'Setup'])).toEqual(['Install', 'Setup']);
  });
});
