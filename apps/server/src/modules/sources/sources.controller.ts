import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  deleteSourceQuerySchema,
  listSourcesQuerySchema,
  pageOf,
  pageQuerySchema,
  sourceDeletionSchema,
  sourceInputSchema,
  sourcePatchSchema,
  sourceSchema,
  sourceSyncRequestedSchema,
  syncRunSchema,
} from '@lumina/shared';
import type {
  DeleteSourceQuery,
  ListSourcesQuery,
  Page,
  PageQuery,
  Source,
  SourceDeletion,
  SourceInput,
  SourcePatch,
  SourceSyncRequested,
  SyncRun,
} from '@lumina/shared';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { Roles } from '../auth/principal';
import { SourceService } from './source.service';

const uuid = new ParseUUIDPipe({ errorHttpStatusCode: 400 });
const sourcePage = pageOf(sourceSchema);
const runPage = pageOf(syncRunSchema);

/** Sources (server folders, Git repositories) kept in sync with a collection: admin keys only. */
@ApiTags('sources')
@Controller('sources')
@Roles('admin')
@ApiForbiddenResponse({ description: 'Not an admin key' })
export class SourcesController {
  constructor(private readonly sources: SourceService) {}

  @Get()
  @ApiOperation({ summary: 'List the sources (oldest first, paginated), optionally of one collection' })
  @ValidResponse(sourcePage, 'SourcePage', 'A page of sources, each with its last sync report')
  list(@ValidQuery(listSourcesQuerySchema) query: ListSourcesQuery): Promise<Page<Source>> {
    return this.sources.list(query);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a source: a server folder or a Git repository whose files a collection keeps in sync',
    description:
      'Nothing is read yet: sync it (POST /sources/:id/sync), or give it a schedule. A folder (or a Git ' +
      'repository given as a server path) must lie inside SOURCE_FOLDER_ROOTS.',
  })
  @ApiBadRequestResponse({ description: 'An invalid config, a folder outside the allowed roots' })
  @ApiNotFoundResponse({ description: 'No such collection' })
  @ApiConflictResponse({ description: 'The collection is being deleted' })
  @ValidResponse(sourceSchema, 'Source', 'The new source')
  create(@ValidBody(sourceInputSchema, 'SourceInput') body: SourceInput): Promise<Source> {
    return this.sources.create(body);
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'No such source' })
  @ValidResponse(sourceSchema, 'Source', 'The source with its last sync report')
  get(@Param('id', uuid) id: string): Promise<Source> {
    return this.sources.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Rename a source, change its schedule or its config (same kind)',
    description: 'A new config makes the next sync compare every item again.',
  })
  @ApiBadRequestResponse({ description: 'An invalid config, or one of another kind' })
  @ApiNotFoundResponse({ description: 'No such source' })
  @ValidResponse(sourceSchema, 'Source', 'The changed source')
  update(
    @Param('id', uuid) id: string,
    @ValidBody(sourcePatchSchema, 'SourcePatch') body: SourcePatch,
  ): Promise<Source> {
    return this.sources.update(id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a source with its documents, or keeping them (keepDocuments=true) as uploaded ones',
  })
  @ApiNotFoundResponse({ description: 'No such source' })
  @ApiConflictResponse({ description: 'A sync of the source is running' })
  @ValidResponse(sourceDeletionSchema, 'SourceDeletion')
  remove(
    @Param('id', uuid) id: string,
    @ValidQuery(deleteSourceQuerySchema) query: DeleteSourceQuery,
  ): Promise<SourceDeletion> {
    return this.sources.remove(id, query.keepDocuments ?? false);
  }

  @Post(':id/sync')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Sync the source now (a background job; one per source at a time)',
    description:
      'Adds the files that appeared, re-indexes those that changed, removes the documents of those that ' +
      'went away; unchanged files are neither parsed nor embedded. Its report: GET /sources/:id/runs.',
  })
  @ApiAcceptedResponse({
    description: 'The sync job (the waiting or running one, if there is one)',
    schema: { $ref: contractRef(sourceSyncRequestedSchema, 'SourceSyncRequested') },
  })
  @ApiNotFoundResponse({ description: 'No such source' })
  @ApiConflictResponse({ description: 'Its collection is being deleted' })
  @ApiServiceUnavailableResponse({ description: 'The job queue (Redis) is not reachable' })
  sync(@Param('id', uuid) id: string): Promise<SourceSyncRequested> {
    return this.sources.requestSync(id);
  }

  @Get(':id/runs')
  @ApiOperation({ summary: 'The reports of the source’s syncs, newest first (paginated)' })
  @ApiNotFoundResponse({ description: 'No such source' })
  @ValidResponse(runPage, 'SyncRunPage', 'A page of sync reports')
  runs(@Param('id', uuid) id: string, @ValidQuery(pageQuerySchema) query: PageQuery): Promise<Page<SyncRun>> {
    return this.sources.runs(id, query);
  }
}
