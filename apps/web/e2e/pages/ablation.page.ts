import type { Locator, Page } from 'playwright-core';
import { eventually } from '../support/browser';

/** The ablation section of a question bank's page: the start button, the matrix, the chart. */
export class AblationPage {
  readonly section: Locator;
  readonly matrix: Locator;
  readonly chart: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByTestId('bank-ablation');
    this.matrix = this.section.getByRole('table', { name: 'Ablation matrix' });
    this.chart = this.section.getByTestId('ablation-chart');
  }

  async start(): Promise<void> {
    await this.section.getByRole('button', { name: 'Run the ablation' }).click();
  }

  status(): Promise<string | null> {
    return this.section.locator('[data-ablation-status]').getAttribute('data-ablation-status');
  }

  async waitUntilDone(timeoutMs: number): Promise<void> {
    let last: string | null = null;
    await eventually(
      () => `the ablation to complete (last seen: ${last})`,
      async () => {
        last = (await this.section.locator('[data-ablation-status]').count()) ? await this.status() : null;
        return last === 'completed' || last === 'failed';
      },
      timeoutMs,
    );
  }

  /** Each row's cells as text, keyed by column header. */
  async rows(): Promise<Record<string, string>[]> {
    const headers = (await this.matrix.locator('thead th').allInnerTexts()).map((text) => text.trim());
    const rows = this.matrix.locator('tbody tr');
    const out: Record<string, string>[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const cells = (await rows.nth(i).locator('td').allInnerTexts()).map((text) => text.trim());
      out.push(Object.fromEntries(headers.map((header, index) => [header || 'Actions', cells[index]])));
    }
    return out;
  }

  bestRow(): Locator {
    return this.matrix.locator('tbody tr[data-best="true"]');
  }

  /** Bars drawn (the chart measures its box first, so wait for them). */
  async waitForBars(count: number, timeoutMs = 30_000): Promise<void> {
    await this.chart.waitFor();
    await eventually(
      `${count} bars on the ablation chart`,
      async () => (await this.chart.locator('.recharts-bar-rectangle').count()) === count,
      timeoutMs,
    );
  }

  async useBest(): Promise<void> {
    await this.section
      .getByTestId('ablation-best')
      .getByRole('button', { name: 'Use these settings' })
      .click();
  }
}
