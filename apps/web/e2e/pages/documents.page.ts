import type { Locator, Page } from 'playwright-core';
import { eventually, WEB_URL } from '../support/browser';

export interface DroppedFile {
  name: string;
  content: string;
  type?: string;
}

/** The documents page: drop zone, this session's uploads, the library table. */
export class DocumentsPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Documents' });
  }

  get dropzone(): Locator {
    return this.page.getByTestId('dropzone');
  }

  get library(): Locator {
    return this.page.getByRole('table', { name: 'Documents' });
  }

  get search(): Locator {
    return this.page.getByLabel('Search documents by title');
  }

  upload(filename: string): Locator {
    return this.page.locator(`li.upload[data-filename="${filename}"]`);
  }

  row(title: string): Locator {
    return this.library
      .locator('tbody tr')
      .filter({ has: this.page.getByRole('link', { name: title, exact: true }) });
  }

  async goto(): Promise<void> {
    await this.page.goto(`${WEB_URL}/documents`, { waitUntil: 'load' });
    await this.heading.waitFor();
    await eventually('the page to hydrate', async () => {
      const state = await this.page
        .getByRole('status', { name: 'Server status' })
        .getAttribute('data-api-state');
      return state !== null && state !== 'checking';
    });
  }

  /** Drops files on the drop zone the way a browser does: dragenter, dragover, drop with a DataTransfer. */
  async drop(files: DroppedFile[]): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const file of list)
        transfer.items.add(new File([file.content], file.name, { type: file.type ?? 'text/markdown' }));
      return transfer;
    }, files);
    await this.dropzone.dispatchEvent('dragenter', { dataTransfer });
    await this.dropzone.dispatchEvent('dragover', { dataTransfer });
    await this.dropzone.dispatchEvent('drop', { dataTransfer });
  }

  /** Records every state an upload's status cell shows, from now on (read with `recordedStates`). */
  async recordStates(filename: string): Promise<void> {
    await this.page.evaluate((name) => {
      const seen: string[] = [];
      (window as unknown as { __states: Record<string, string[]> }).__states ??= {};
      (window as unknown as { __states: Record<string, string[]> }).__states[name] = seen;
      const read = () => {
        const cell = document.querySelector(`li.upload[data-filename="${name}"] .document-status`);
        if (!cell) return;
        const bar = cell.querySelector('[role="progressbar"]');
        const state = `${cell.getAttribute('data-status')}|${bar?.getAttribute('aria-valuetext') ?? cell.textContent ?? ''}`;
        if (seen.at(-1) !== state) seen.push(state);
      };
      new MutationObserver(read).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    }, filename);
  }

  async recordedStates(filename: string): Promise<string[]> {
    return this.page.evaluate(
      (name) => (window as unknown as { __states: Record<string, string[]> }).__states[name] ?? [],
      filename,
    );
  }
}
