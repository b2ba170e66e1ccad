import { Injectable } from '@nestjs/common';
import { CSV_COLUMNS, formatSources, inertCsvField } from '@lumina/eval';
import type { QuestionBank } from '@lumina/shared';
import type { QuestionBankItemEntity } from './entities/question-bank-item.entity';
import { QuestionBankItemService } from './question-bank-item.service';
import { QuestionBankService } from './question-bank.service';

export interface BankExport {
  filename: string;
  contentType: string;
  body: string;
}

/** A bank as JSON (re-importable with format json) or CSV (re-importable with format csv). */
@Injectable()
export class QuestionExportService {
  constructor(
    private readonly banks: QuestionBankService,
    private readonly items: QuestionBankItemService,
  ) {}

  async export(bankId: string, format: 'json' | 'csv'): Promise<BankExport> {
    const bank = await this.banks.findOne(bankId);
    const items = await this.items.allItems(bankId);
    const base = slug(bank.name) || 'question-bank';
    if (format === 'csv') {
      return { filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8', body: toCsv(items) };
    }
    return {
      filename: `${base}.json`,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(toJson(bank, items), null, 2),
    };
  }
}

function toJson(bank: QuestionBank, items: QuestionBankItemEntity[]) {
  return {
    bank: { name: bank.name, description: bank.description, templateId: bank.templateId, tags: bank.tags },
    exportedAt: new Date().toISOString(),
    items: items.map((item) => ({
      id: item.id,
      question: item.question,
      expectedAnswer: item.expectedAnswer,
      inScope: item.inScope,
      expectedSources: item.expectedSources,
      language: item.language,
      tags: item.tags,
      difficulty: item.difficulty,
      source: item.source,
      generator: item.generator,
      metadata: item.metadata,
    })),
  };
}

function toCsv(items: QuestionBankItemEntity[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const item of items) {
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: item.id,
      question: item.question,
      expected_answer: item.expectedAnswer ?? '',
      in_scope: String(item.inScope),
      expected_documents: formatSources(item.expectedSources, 'document'),
      expected_chunks: formatSources(item.expectedSources, 'chunk'),
      language: item.language,
      tags: item.tags.join(';'),
      difficulty: item.difficulty ?? '',
      source: item.source,
      generator: item.generator ?? '',
    };
    lines.push(CSV_COLUMNS.map((column) => inertCsvField(cells[column])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}
