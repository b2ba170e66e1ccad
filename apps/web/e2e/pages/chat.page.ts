import type { Locator, Page } from 'playwright-core';
import { eventually, WEB_URL } from '../support/browser';

/** The chat home page, seen the way a person uses it: by roles and labels. */
export class ChatPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Lumina', exact: true });
  }

  get question(): Locator {
    return this.page.getByLabel('Ask a question about your documents', { exact: true });
  }

  get sendButton(): Locator {
    return this.page.getByRole('button', { name: 'Send', exact: true });
  }

  get settingsButton(): Locator {
    return this.page.getByRole('button', { name: /^Retrieval settings/ });
  }

  get drawer(): Locator {
    return this.page.getByRole('dialog', { name: 'Retrieval settings' });
  }

  get hyde(): Locator {
    return this.drawer.getByLabel('HyDE', { exact: true });
  }

  get resetButton(): Locator {
    return this.drawer.getByRole('button', { name: 'Reset to defaults' });
  }

  get statusBadge(): Locator {
    return this.page.getByRole('status', { name: 'Server status' });
  }

  get conversation(): Locator {
    return this.page.getByRole('log', { name: 'Conversation' });
  }

  async goto(): Promise<void> {
    await this.page.goto(`${WEB_URL}/`, { waitUntil: 'load' });
    await this.heading.waitFor({ state: 'visible' });
  }

  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'load' });
    await this.heading.waitFor({ state: 'visible' });
  }

  /** Clicks until the drawer opens: a click that lands before React hydrates is lost. */
  async openSettings(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      await this.settingsButton.click();
      try {
        await this.drawer.waitFor({ state: 'visible', timeout: 2_000 });
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
  }

  async closeSettings(): Promise<void> {
    await this.drawer.getByRole('button', { name: 'Close settings' }).click();
    await this.drawer.waitFor({ state: 'hidden' });
  }

  async waitForChecked(locator: Locator, expected: boolean): Promise<void> {
    await eventually(`the checkbox to be ${expected ? 'checked' : 'unchecked'}`, async () => {
      return (await locator.isChecked()) === expected;
    });
  }

  /** The persisted overrides, as the settings store wrote them. */
  async storedOverrides(): Promise<unknown> {
    return this.page.evaluate(() => {
      const raw = window.localStorage.getItem('lumina.settings');
      return raw === null ? null : (JSON.parse(raw) as { state?: { overrides?: unknown } }).state?.overrides;
    });
  }

  /** Settled API state on the status badge (anything but "checking"). */
  async apiState(): Promise<string> {
    let state = 'checking';
    await eventually('the status badge to finish its first health check', async () => {
      state = (await this.statusBadge.getAttribute('data-api-state')) ?? 'checking';
      return state !== 'checking';
    });
    return state;
  }
}
