import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Page, QuestionTemplate } from '@lumina/shared';
import { Roles } from '../auth/principal';
import { PageQueryDto } from '../../common/pagination/page-query.dto';
import type { Unserialized } from '../../common/unserialized';
import { CreateQuestionTemplateDto, UpdateQuestionTemplateDto } from './dtos/question-template.dto';
import { QuestionTemplateService } from './question-template.service';

@ApiTags('question-templates')
@Roles('admin')
@Controller('question-templates')
export class QuestionTemplateController {
  constructor(private readonly templates: QuestionTemplateService) {}

  @Get()
  @ApiOperation({ summary: 'List question templates (paginated)' })
  findAll(@Query() query: PageQueryDto): Promise<Page<Unserialized<QuestionTemplate>>> {
    return this.templates.findAll(query);
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'No such template' })
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.findOne(id);
  }

  @Post()
  create(@Body() body: CreateQuestionTemplateDto): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.create(body);
  }

  @Patch(':id')
  update(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateQuestionTemplateDto,
  ): Promise<Unserialized<QuestionTemplate>> {
    return this.templates.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a template (admin); its banks stay, with templateId null' })
  async remove(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.templates.remove(id);
  }
}
