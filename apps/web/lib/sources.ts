import type { Source, SourceInput, SourceKind, SyncRun } from '@lumina/shared';

/** The new-source form as a person fills it in. */
export interface SourceForm {
  name: string;
  collectionId: string;
  kind: SourceKind;
  /** Folder path, Git URL or path, or the website's start URL. */
  location: string;
  branch: string;
  /** One glob a line. */
  include: string;
  exclude: string;
  webUrl: string;
  /** Minutes between syncs; empty: only when asked. */
  schedule: string;
  maxPages: string;
}

export const EMPTY_SOURCE_FORM: SourceForm = {
  name: '',
  collectionId: '',
  kind: 'git',
  location: '',
  branch: '',
  include: '',
  exclude: '',
  webUrl: '',
  schedule: '',
  maxPages: '',
};

export const KIND_LABELS: Record<SourceKind, string> = {
  git: 'Git repository',
  folder: 'Server folder',
  website: 'Website',
};

export const LOCATION_LABELS: Record<SourceKind, string> = {
  git: 'Repository URL or server path',
  folder: 'Folder path on the server',
  website: 'Start page or sitemap.xml',
};

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The request for the form, or the first thing to fix (the server checks the rest). */
export function sourceInputOf(form: SourceForm): { input: SourceInput } | { error: string } {
  const name = form.name.trim();
  const location = form.location.trim();
  if (!name) return { error: 'Give the source a name.' };
  if (!location) return { error: `Fill in the ${LOCATION_LABELS[form.kind].toLowerCase()}.` };
  const schedule = form.schedule.trim();
  if (schedule && !/^\d+$/.test(schedule)) return { error: 'The schedule is a whole number of minutes.' };
  const include = lines(form.include);
  const exclude = lines(form.exclude);
  const globs = { ...(include.length ? { include } : {}), ...(exclude.length ? { exclude } : {}) };
  const config: SourceInput['config'] =
    form.kind === 'git'
      ? {
          kind: 'git',
          url: location,
          ...(form.branch.trim() ? { branch: form.branch.trim() } : {}),
          ...globs,
          ...(form.webUrl.trim() ? { webUrl: form.webUrl.trim() } : {}),
        }
      : form.kind === 'folder'
        ? { kind: 'folder', path: location, ...globs }
        : {
            kind: 'website',
            startUrl: location,
            ...(/^\d+$/.test(form.maxPages.trim()) ? { maxPages: Number(form.maxPages.trim()) } : {}),
          };
  return {
    input: {
      name,
      ...(form.collectionId ? { collectionId: form.collectionId } : {}),
      scheduleMinutes: schedule ? Number(schedule) : null,
      config,
    },
  };
}

/** Where the source reads from, in one line. */
export function sourceLocation(source: Source): string {
  const config = source.config;
  if (config.kind === 'git') return `${config.url}${config.branch ? ` (${config.branch})` : ''}`;
  if (config.kind === 'folder') return config.path;
  return config.startUrl;
}

/** "every 60 min" or "when asked". */
export function scheduleLabel(minutes: number | null): string {
  if (minutes === null) return 'when asked';
  if (minutes % 1440 === 0) return `every ${minutes / 1440} day${minutes === 1440 ? '' : 's'}`;
  if (minutes % 60 === 0) return `every ${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `every ${minutes} min`;
}

/** "2 added, 1 updated, 5 unchanged, 1 deleted, 0 failed". */
export function runCounts(run: SyncRun): string {
  return `${run.added} added, ${run.updated} updated, ${run.unchanged} unchanged, ${run.deleted} deleted, ${run.failed} failed`;
}

/** Whether the page should keep asking for the source's state. */
export function isBusy(source: Source): boolean {
  return source.state !== 'idle' || source.lastRun?.status === 'running';
}
