import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  pageOf,
  pageQuerySchema,
  questionTemplateInputSchema,
  questionTemplatePatchSchema,
  questionTemplateSchema,
} from '@lumina/shared';
import type { Page, PageQuery, QuestionTemplate, QuestionTemplateInput } from '@lumina/shared';
import { Roles } from '../auth/principal';
import type { Unserialized } from '../../common/unserialized';
import { ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { QuestionTemplateService } from './question-template.service';

@ApiTags('question-templates')
@Controller('question-templates')
/**
 * Question templates: every key may read them (a write grant makes banks from them); only an admin key
 * changes them, since they serve every collection.
 */
export class QuestionTemplateController {
  constructor(private readonly templates: QuestionTemplateService) {}

  @Get()
  @ApiOperation({ summary: 'List question templates (paginated)' })
  @ValidResponse(pageOf(questionTemplateSchema), 'QuestionTemplatePage')
  findAll(@ValidQuery(pageQuerySchema) query: PageQuery): Promise<Page<Unserialized<QuestionTemplate>>> {
    return this.templates.findAll(query);
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'No such template' })
  @ValidResponse(questionTemplateSchema, 'QuestionTemplate')
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.findOne(id);
  }

  @Post()
  @Roles('admin')
  @ValidResponse(questionTemplateSchema, 'QuestionTemplate')
  create(
    @ValidBody(questionTemplateInputSchema, 'QuestionTemplateInput') body: QuestionTemplateInput,
  ): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.create(body);
  }

  @Patch(':id')
  @Roles('admin')
  @ValidResponse(questionTemplateSchema, 'QuestionTemplate')
  update(
    @Param('id', ParseUUIDPipe) id: string,
    @ValidBody(questionTemplatePatchSchema, 'QuestionTemplatePatch') body: Partial<QuestionTemplateInput>,
  ): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.update(id, body);
  }

  @Delete(':id')
  @Roles('admin')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a template (admin); its banks stay, with templateId null' })
  async remove(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.templates.remove(id);
  }
}
