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
import type { Page } from '@lumina/shared';
import { Roles } from '../auth/principal';
import { PageQueryDto } from '../../common/pagination/page-query.dto';
import { CreateQuestionTemplateDto, UpdateQuestionTemplateDto } from './dtos/question-template.dto';
import type { QuestionTemplateEntity } from './entities/question-template.entity';
import { QuestionTemplateService } from './question-template.service';

@ApiTags('question-templates')
@Roles('admin')
@Controller('question-templates')
export class QuestionTemplateController {
  constructor(private readonly templates: QuestionTemplateService) {}

  @Get()
  @ApiOperation({ summary: 'List question templates (paginated)' })
  findAll(@Query() query: PageQueryDto): Promise<Page<QuestionTemplateEntity>> {
    return this.templates.findAll(query);
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'No such template' })
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<QuestionTemplateEntity> {
    return this.templates.findOne(id);
  }

  @Post()
  create(@Body() body: CreateQuestionTemplateDto): Promise<QuestionTemplateEntity> {
    return this.templates.create(body);
  }

  @Patch(':id')
  update(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateQuestionTemplateDto,
  ): Promise<QuestionTemplateEntity> {
    return this.templates.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a template (admin); its banks stay, with templateId null' })
  async remove(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.templates.remove(id);
  }
}
