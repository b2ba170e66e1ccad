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
  UseGuards,
} from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Page } from '@lumina/shared';
import { AdminGuard } from '../auth/admin.guard';
import { PageQueryDto } from './dtos/page-query.dto';
import { CreateQuestionTemplateDto, UpdateQuestionTemplateDto } from './dtos/question-template.dto';
import type { QuestionTemplateEntity } from './entities/question-template.entity';
import { QuestionTemplateService } from './question-template.service';

@ApiTags('question-templates')
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
  @UseGuards(AdminGuard)
  @ApiSecurity('x-api-key')
  create(@Body() body: CreateQuestionTemplateDto): Promise<QuestionTemplateEntity> {
    return this.templates.create(body);
  }

  @Patch(':id')
  @UseGuards(AdminGuard)
  @ApiSecurity('x-api-key')
  update(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateQuestionTemplateDto,
  ): Promise<QuestionTemplateEntity> {
    return this.templates.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @UseGuards(AdminGuard)
  @ApiSecurity('x-api-key')
  @ApiOperation({ summary: 'Delete a template (admin); its banks stay, with templateId null' })
  async remove(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.templates.remove(id);
  }
}
