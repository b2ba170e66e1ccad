import {
  filled,
  int,
  objectError,
  pageQuerySchema,
  queryBool,
  text,
  typeError,
  uuid,
  z,
} from './contract/zod';
import { invalidGlob } from './source-globs';

/**
 * Sources: a server folder or a Git repository that a collection keeps in sync with. A sync adds the
 * files that appeared, re-indexes those that changed, removes the documents of those that went away, and
 * leaves the others alone (no parse, no embedding). Only admin keys manage sources.
 */

export const SOURCE_KINDS = ['folder', 'git', 'website'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const MAX_SOURCE_NAME_CHARS = 120;
/** At most this many include or exclude globs per source. */
export const MAX_SOURCE_GLOBS = 50;
/** Shortest and longest schedule, in minutes (a week). */
export const MIN_SCHEDULE_MINUTES = 5;
export const MAX_SCHEDULE_MINUTES = 10_080;

const globList = (field: string) =>
  z
    .array(
      filled(field.replace(/s$/, ''), 300).check(
        z.refine((pattern) => invalidGlob([pattern]) === null, {
          error: (issue) => invalidGlob([String(issue.input)]) ?? `${field} must hold glob patterns`,
        }),
      ),
      { error: typeError(field, `${field} must be an array of glob patterns`) },
    )
    .max(MAX_SOURCE_GLOBS, { error: `${field} must hold at most ${MAX_SOURCE_GLOBS} patterns` });

const includeField = globList('include')
  .min(1, { error: 'include must hold at least one pattern (or be left out: every supported file)' })
  .optional()
  .meta({
    description:
      'Glob patterns of the paths to take, relative to the folder or repository root (`**` any ' +
      'directories, `*` any characters but `/`, `?`, `{a,b}`); absent: every file of a supported type',
    example: ['docs/**/*.md'],
  });
const excludeField = globList('exclude')
  .optional()
  .meta({
    description: 'Glob patterns of paths to leave out, even when included',
    example: ['**/drafts/**'],
  });

/** A folder on the server, under one of SOURCE_FOLDER_ROOTS. */
export const folderSourceConfigSchema = z.strictObject(
  {
    kind: z.literal('folder', { error: 'kind must be folder, git or website' }),
    path: filled('path', 4096).meta({
      description: 'An absolute path on the server, inside one of the roots SOURCE_FOLDER_ROOTS allows',
      example: '/srv/handbook',
    }),
    include: includeField,
    exclude: excludeField,
  },
  { error: objectError('config must be an object: { kind: "folder", path, include?, exclude? }') },
);
export type FolderSourceConfig = z.infer<typeof folderSourceConfigSchema>;

/** A Git repository read with the git command line: a URL (https, ssh) or a path under SOURCE_FOLDER_ROOTS. */
export const gitSourceConfigSchema = z.strictObject(
  {
    kind: z.literal('git', { error: 'kind must be folder, git or website' }),
    url: filled('url', 2048).meta({
      description:
        'https:// or ssh:// URL, user@host:path, or an absolute path on the server inside SOURCE_FOLDER_ROOTS',
      example: 'https://github.com/example/handbook.git',
    }),
    branch: filled('branch', 255)
      .regex(/^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/, {
        error: 'branch must be a branch name (letters, digits, ., _, / and -, not starting with -)',
      })
      .optional()
      .meta({ description: 'The branch to follow; absent: main' }),
    include: includeField,
    exclude: excludeField,
    webUrl: text('webUrl', 2048)
      .regex(/^https?:\/\/\S*\{path\}\S*$/, {
        error: 'webUrl must be an http(s) URL pattern holding {path} (and usually {commit})',
      })
      .optional()
      .meta({
        description: 'Where a file is seen on the web, for citation links: {commit} and {path} are filled in',
        example: 'https://github.com/example/handbook/blob/{commit}/{path}',
      }),
  },
  {
    error: objectError(
      'config must be an object: { kind: "git", url, branch?, include?, exclude?, webUrl? }',
    ),
  },
);
export type GitSourceConfig = z.infer<typeof gitSourceConfigSchema>;

const httpUrl = (field: string) =>
  text(field, 2048).regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { error: `${field} must be an http(s) URL` });

/**
 * A website, crawled from a start page (or the pages a sitemap.xml lists) within a URL prefix, honouring
 * robots.txt, with conditional requests so an unchanged page costs a 304.
 */
export const websiteSourceConfigSchema = z.strictObject(
  {
    kind: z.literal('website', { error: 'kind must be folder, git or website' }),
    startUrl: httpUrl('startUrl').meta({
      description: 'The first page, or a sitemap.xml (its pages are the start)',
      example: 'https://docs.example.com/handbook/',
    }),
    prefix: httpUrl('prefix')
      .optional()
      .meta({ description: 'Only URLs starting with it are taken; absent: the start URL up to its last /' }),
    maxPages: int('maxPages', 1, 100_000)
      .optional()
      .meta({ description: 'At most this many pages; absent: 200' }),
    maxDepth: int('maxDepth', 0, 50)
      .optional()
      .meta({ description: 'Links followed at most this deep from the start; absent: 5' }),
    requestsPerSecond: z
      .number({ error: 'requestsPerSecond must be a number' })
      .min(0.1, { error: 'requestsPerSecond must be 0.1 or more' })
      .max(50, { error: 'requestsPerSecond must be at most 50' })
      .optional()
      .meta({ description: 'Requests per second to the site at most; absent: 2' }),
  },
  {
    error: objectError(
      'config must be an object: { kind: "website", startUrl, prefix?, maxPages?, maxDepth?, requestsPerSecond? }',
    ),
  },
);
export type WebsiteSourceConfig = z.infer<typeof websiteSourceConfigSchema>;

export const sourceConfigSchema = z.discriminatedUnion(
  'kind',
  [folderSourceConfigSchema, gitSourceConfigSchema, websiteSourceConfigSchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'config.kind must be folder, git or website'
        : 'config must be an object',
  },
);
export type SourceConfig = z.infer<typeof sourceConfigSchema>;

const scheduleField = int('scheduleMinutes', MIN_SCHEDULE_MINUTES, MAX_SCHEDULE_MINUTES)
  .nullable()
  .optional()
  .meta({
    description: 'Sync every this many minutes; null or absent: only when asked (POST /sources/:id/sync)',
  });

/** Body of POST /sources. */
export const sourceInputSchema = z
  .strictObject(
    {
      name: filled('name', MAX_SOURCE_NAME_CHARS),
      collectionId: uuid('collectionId', 'a collection id')
        .optional()
        .meta({ description: 'The collection its documents go into; absent: the default collection' }),
      scheduleMinutes: scheduleField,
      config: sourceConfigSchema,
    },
    { error: objectError('the body must be an object: { name, collectionId?, scheduleMinutes?, config }') },
  )
  .meta({
    example: {
      name: 'Handbook',
      scheduleMinutes: 60,
      config: { kind: 'git', url: 'https://github.com/example/handbook.git', include: ['docs/**/*.md'] },
    },
  });
export type SourceInput = z.infer<typeof sourceInputSchema>;

/** Body of PATCH /sources/:id; a new config must keep the kind. */
export const sourcePatchSchema = z
  .strictObject(
    {
      name: filled('name', MAX_SOURCE_NAME_CHARS).optional(),
      scheduleMinutes: scheduleField,
      config: sourceConfigSchema.optional(),
    },
    { error: objectError('the body must be an object: { name?, scheduleMinutes?, config? }') },
  )
  .check(
    z.refine((patch) => Object.keys(patch).length > 0, {
      error: 'name one of name, scheduleMinutes or config to change',
    }),
  )
  .meta({ example: { scheduleMinutes: null } });
export type SourcePatch = z.infer<typeof sourcePatchSchema>;

/** GET /sources: a page, oldest first, optionally of one collection. */
export const listSourcesQuerySchema = pageQuerySchema.extend({
  collectionId: uuid('collectionId', 'a collection id')
    .optional()
    .meta({ description: 'Only this collection’s sources' }),
});
export type ListSourcesQuery = z.infer<typeof listSourcesQuerySchema>;

/** DELETE /sources/:id?keepDocuments=true: keep what it brought in, as uploaded documents. */
export const deleteSourceQuerySchema = z.strictObject({
  keepDocuments: queryBool('keepDocuments')
    .optional()
    .meta({ description: 'Keep its documents (as uploaded ones); absent or false: delete them with it' }),
});
export type DeleteSourceQuery = z.infer<typeof deleteSourceQuerySchema>;

const timestamp = z.string().meta({ format: 'date-time' });

export const SYNC_RUN_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** An item a sync could not take in, and why. */
export const syncFailureSchema = z.object({ item: z.string(), reason: z.string() });
export type SyncFailure = z.infer<typeof syncFailureSchema>;

/** A sync's report. */
export const syncRunSchema = z.object({
  id: z.string(),
  sourceId: z.string(),
  /** `interrupted`: its worker stopped (crashed, killed) before the end; the sync ran again. */
  status: z.enum(SYNC_RUN_STATUSES),
  trigger: z.enum(['manual', 'schedule']),
  startedAt: timestamp,
  finishedAt: timestamp.nullable(),
  durationMs: z.number().nullable(),
  added: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  deleted: z.number(),
  failed: z.number(),
  /** The first 100 failures. */
  failures: z.array(syncFailureSchema),
  /** Why the sync as a whole failed (the folder is gone, git could not fetch, …). */
  error: z.string().nullable(),
  /** The commit synced before and by this run (Git sources). */
  cursorBefore: z.string().nullable(),
  cursorAfter: z.string().nullable(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

/** A source in lists and answers. */
export const sourceSchema = z.object({
  id: z.string(),
  collectionId: z.string(),
  name: z.string(),
  kind: z.enum(SOURCE_KINDS),
  config: sourceConfigSchema,
  scheduleMinutes: z.number().nullable(),
  /** When the schedule syncs it next; null without a schedule. */
  nextSyncAt: timestamp.nullable(),
  /** `queued`: a sync was asked for and waits for a worker; `syncing`: one is running. */
  state: z.enum(['idle', 'queued', 'syncing']),
  /** The items (files) it brought in. */
  itemCount: z.number(),
  /** What the last complete sync reached: a Git source's commit; null otherwise. */
  cursor: z.string().nullable(),
  lastRun: syncRunSchema.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Source = z.infer<typeof sourceSchema>;

/** The answer of POST /sources/:id/sync (202). */
export const sourceSyncRequestedSchema = z.object({
  sourceId: z.string(),
  jobId: z.string(),
  /** A sync of this source was already waiting or running: no second one was queued. */
  alreadyQueued: z.boolean(),
});
export type SourceSyncRequested = z.infer<typeof sourceSyncRequestedSchema>;

/** The answer of DELETE /sources/:id. */
export const sourceDeletionSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  documentsDeleted: z.number(),
  documentsKept: z.number(),
});
export type SourceDeletion = z.infer<typeof sourceDeletionSchema>;
