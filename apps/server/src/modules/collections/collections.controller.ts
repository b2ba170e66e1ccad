import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  collectionDeletionSchema,
  collectionInputSchema,
  collectionPatchSchema,
  collectionSchema,
  listCollectionsQuerySchema,
  pageOf,
} from '@lumina/shared';
import type {
  Collection,
  CollectionDeletion,
  CollectionInput,
  CollectionPatch,
  ListCollectionsQuery,
  Page,
} from '@lumina/shared';
import { collectionAccess, CurrentPrincipal, Roles } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { CollectionService } from './collection.service';

const uuid = new ParseUUIDPipe();
const collectionPage = pageOf(collectionSchema);

/** Collections: any key reads them; an admin key creates, changes and deletes them. */
@ApiTags('collections')
@Controller('collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionService) {}

  @Get()
  @ApiOperation({
    summary: 'List the collections the key may read (oldest first, paginated; search in the name)',
  })
  @ApiBadRequestResponse({ description: 'page or limit below 1' })
  @ValidResponse(collectionPage, 'CollectionPage', 'A page of collections with their counts')
  list(
    @ValidQuery(listCollectionsQuerySchema) query: ListCollectionsQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<Collection>> {
    return this.collections.list(query, collectionAccess(principal));
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'No such collection, or one the key may not read' })
  @ValidResponse(collectionSchema, 'Collection', 'The collection with its counts')
  get(@Param('id', uuid) id: string, @CurrentPrincipal() principal: Principal): Promise<Collection> {
    return this.collections.get(id, collectionAccess(principal));
  }

  @Post()
  @Roles('admin')
  @ApiOperation({ summary: 'Create a collection (admin); the slug is made from the name when absent' })
  @ApiConflictResponse({ description: 'Another collection has the slug' })
  @ValidResponse(collectionSchema, 'Collection', 'The new collection')
  create(@ValidBody(collectionInputSchema, 'CollectionInput') body: CollectionInput): Promise<Collection> {
    return this.collections.create(body);
  }

  @Patch(':id')
  @Roles('admin')
  @ApiOperation({ summary: 'Rename, re-slug or describe a collection (admin)' })
  @ApiNotFoundResponse({ description: 'No such collection' })
  @ApiConflictResponse({ description: 'The collection is being deleted, or another one has the slug' })
  @ValidResponse(collectionSchema, 'Collection', 'The changed collection')
  update(
    @Param('id', uuid) id: string,
    @ValidBody(collectionPatchSchema, 'CollectionPatch') body: CollectionPatch,
  ): Promise<Collection> {
    return this.collections.update(id, body);
  }

  @Delete(':id')
  @Roles('admin')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Delete a collection with its documents, question banks and rerankers (admin)',
    description:
      'The collection is marked at once: it takes no new documents, is searched no more and cannot be ' +
      'changed; a background job then removes everything in it and the collection itself.',
  })
  @ApiAcceptedResponse({
    description: 'The deletion job',
    schema: { $ref: contractRef(collectionDeletionSchema, 'CollectionDeletion') },
  })
  @ApiNotFoundResponse({ description: 'No such collection' })
  @ApiConflictResponse({ description: 'The collection is already being deleted' })
  @ApiServiceUnavailableResponse({ description: 'The job queue (Redis) is not reachable; nothing changed' })
  remove(@Param('id', uuid) id: string): Promise<CollectionDeletion> {
    return this.collections.requestDeletion(id);
  }
}
