import { describeProgress, isTerminal, overallProgress } from './ingestion';

describe('ingestion progress', () => {
  it('moves forward through the stages, embedding filling its share by done/total', () => {
    const values = [
      overallProgress({ status: 'queued', done: 0, total: 0 }),
      overallProgress({ status: 'parsing', done: 0, total: 0 }),
      overallProgress({ status: 'chunking', done: 0, total: 0 }),
      overallProgress({ status: 'embedding', done: 0, total: 10 }),
      overallProgress({ status: 'embedding', done: 5, total: 10 }),
      overallProgress({ status: 'embedding', done: 10, total: 10 }),
      overallProgress({ status: 'indexed', done: 10, total: 10 }),
    ];
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(1);
    expect(overallProgress({ status: 'embedding', done: 50, total: 10 })).toBeLessThan(1);
  });

  it('says what is happening', () => {
    expect(describeProgress({ status: 'embedding', done: 12, total: 40 })).toBe(
      'Embedding passages: 12 of 40',
    );
    expect(describeProgress({ status: 'queued', done: 0, total: 0 })).toBe('Waiting in the queue');
    expect(isTerminal('failed')).toBe(true);
    expect(isTerminal('chunking')).toBe(false);
  });
});
