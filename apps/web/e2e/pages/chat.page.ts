import type { Locator, Page } from 'playwright-core';
import { eventually, WEB_URL } from '../support/browser';

/** The chat home page, seen the way a person uses it: by roles and labels. */
export class ChatPage {
  /** `webUrl`: another web app than the shared stack's (a suite that runs its own pair). */
  constructor(
    readonly page: Page,
    private readonly webUrl: string = WEB_URL,
  ) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Lumina', exact: true });
  }

  get question(): Locator {
    return this.page.getByLabel('Ask a question about your documents', { exact: true });
  }

  get sendButton(): Locator {
    return this.page.getByRole('button', { name: 'Send', exact: true });
  }

  get stopButton(): Locator {
    return this.page.getByRole('button', { name: 'Stop', exact: true });
  }

  get settingsButton(): Locator {
    return this.page.getByRole('button', { name: /^Retrieval settings/ });
  }

  get drawer(): Locator {
    return this.page.getByRole('dialog', { name: 'Retrieval settings' });
  }

  toggle(label: string): Locator {
    return this.drawer.getByLabel(label, { exact: true });
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

  get conversations(): Locator {
    return this.page.getByRole('navigation', { name: 'Conversations' });
  }

  lastAnswer(): Locator {
    return this.conversation.locator('li.message-assistant').last();
  }

  get citationDialog(): Locator {
    return this.page.locator('dialog.citation-dialog[open]');
  }

  async goto(): Promise<void> {
    await this.page.goto(`${this.webUrl}/`, { waitUntil: 'load' });
    await this.heading.waitFor({ state: 'visible' });
    await this.waitForHydration();
  }

  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'load' });
    await this.heading.waitFor({ state: 'visible' });
    await this.waitForHydration();
  }

  /** The status badge leaves "checking" only once React runs: after that, clicks are handled. */
  async waitForHydration(): Promise<string> {
    let state = 'checking';
    await eventually('the page to hydrate and check the server', async () => {
      state = (await this.statusBadge.getAttribute('data-api-state')) ?? 'checking';
      return state !== 'checking';
    });
    return state;
  }

  async openSettings(): Promise<void> {
    await this.settingsButton.click();
    await this.drawer.waitFor({ state: 'visible' });
  }

  async closeSettings(): Promise<void> {
    await this.drawer.getByRole('button', { name: 'Close settings' }).click();
    await this.drawer.waitFor({ state: 'hidden' });
  }

  /** The Off / Adaptive / On radio of an enhancement (query expansion, HyDE). */
  mode(label: string, mode: 'Off' | 'Adaptive' | 'On'): Locator {
    return this.drawer
      .getByRole('radiogroup', { name: label })
      .getByRole('radio', { name: mode, exact: true });
  }

  async setMode(label: string, mode: 'Off' | 'Adaptive' | 'On'): Promise<void> {
    const radio = this.mode(label, mode);
    if (!(await radio.isChecked())) await radio.check();
    await this.waitForChecked(radio, true);
  }

  async setToggle(label: string, on: boolean): Promise<void> {
    const box = this.toggle(label);
    if ((await box.isChecked()) !== on) await box.click();
    await this.waitForChecked(box, on);
  }

  async waitForChecked(locator: Locator, expected: boolean): Promise<void> {
    await eventually(`the checkbox to be ${expected ? 'checked' : 'unchecked'}`, async () => {
      return (await locator.isChecked()) === expected;
    });
  }

  /** Types the question and presses Enter. */
  async ask(text: string): Promise<void> {
    await this.question.fill(text);
    await this.question.press('Enter');
  }

  /** Waits until the last answer settles (done, stopped or error) and returns its phase. */
  async waitForAnswer(timeoutMs = 30_000): Promise<string> {
    let phase = '';
    await eventually(
      'the answer to finish',
      async () => {
        phase = (await this.lastAnswer().getAttribute('data-phase')) ?? '';
        return phase === 'done' || phase === 'stopped' || phase === 'error';
      },
      timeoutMs,
    );
    return phase;
  }

  /** The persisted overrides, as the settings store wrote them. */
  async storedOverrides(): Promise<unknown> {
    return this.page.evaluate(() => {
      const raw = window.localStorage.getItem('lumina.settings');
      return raw === null ? null : (JSON.parse(raw) as { state?: { overrides?: unknown } }).state?.overrides;
    });
  }
}
