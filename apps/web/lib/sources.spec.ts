import type { Source, SyncRun } from '@lumina/shared';
import {
  EMPTY_SOURCE_FORM,
  isBusy,
  runCounts,
  scheduleLabel,
  sourceInputOf,
  sourceLocation,
} from './sources';

describe('source form and labels', () => {
  it('builds the request of each kind, leaving out what is not filled in', () => {
    expect(
      sourceInputOf({
        ...EMPTY_SOURCE_FORM,
        name: ' Handbook ',
        location: '/srv/handbook.git',
        branch: 'main',
        include: 'docs/**/*.md\n\n  *.md ',
        schedule: '60',
      }),
    ).toEqual({
      input: {
        name: 'Handbook',
        scheduleMinutes: 60,
        config: { kind: 'git', url: '/srv/handbook.git', branch: 'main', include: ['docs/**/*.md', '*.md'] },
      },
    });
    expect(
      sourceInputOf({
        ...EMPTY_SOURCE_FORM,
        kind: 'folder',
        name: 'F',
        location: '/srv/f',
        collectionId: 'c1',
      }),
    ).toEqual({
      input: {
        name: 'F',
        collectionId: 'c1',
        scheduleMinutes: null,
        config: { kind: 'folder', path: '/srv/f' },
      },
    });
    expect(
      sourceInputOf({
        ...EMPTY_SOURCE_FORM,
        kind: 'website',
        name: 'W',
        location: 'https://x.test/',
        maxPages: '20',
      }),
    ).toEqual({
      input: {
        name: 'W',
        scheduleMinutes: null,
        config: { kind: 'website', startUrl: 'https://x.test/', maxPages: 20 },
      },
    });
  });

  it('says what to fix first', () => {
    expect(sourceInputOf(EMPTY_SOURCE_FORM)).toEqual({ error: 'Give the source a name.' });
    expect(sourceInputOf({ ...EMPTY_SOURCE_FORM, name: 'x' })).toEqual({
      error: 'Fill in the repository url or server path.',
    });
    expect(sourceInputOf({ ...EMPTY_SOURCE_FORM, name: 'x', location: '/r', schedule: 'hourly' })).toEqual({
      error: 'The schedule is a whole number of minutes.',
    });
  });

  it('labels schedules, locations, reports and the busy state', () => {
    expect(scheduleLabel(null)).toBe('when asked');
    expect(scheduleLabel(45)).toBe('every 45 min');
    expect(scheduleLabel(120)).toBe('every 2 hours');
    expect(scheduleLabel(1440)).toBe('every 1 day');
    const run = { added: 2, updated: 1, unchanged: 5, deleted: 1, failed: 0, status: 'succeeded' } as SyncRun;
    expect(runCounts(run)).toBe('2 added, 1 updated, 5 unchanged, 1 deleted, 0 failed');
    const source = {
      state: 'idle',
      lastRun: run,
      config: { kind: 'git', url: '/r', branch: 'dev' },
    } as unknown as Source;
    expect(sourceLocation(source)).toBe('/r (dev)');
    expect(isBusy(source)).toBe(false);
    expect(isBusy({ ...source, state: 'queued' })).toBe(true);
    expect(isBusy({ ...source, lastRun: { ...run, status: 'running' } })).toBe(true);
  });
});
