import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { readStack, type StackInfo } from './stack';

export const ARTIFACTS_DIR = path.resolve(
  process.env.E2E_ARTIFACTS_DIR ?? path.join(__dirname, '..', 'artifacts'),
);

/** Where the web app, the API and the scripted LLM of this run listen. */
export const stack: StackInfo = readStack();
export const WEB_URL = stack.webUrl;
export const API_URL = stack.apiUrl;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh context and page that record uncaught page errors (a test fails if there are any). */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors };
}

/** Path for a screenshot, creating the artifacts folder on first use. */
/**
 * Sends every API request of the page to `target` instead of the shared stack's API: for a suite
 * that runs its own server (its own corpus, offline), so no result depends on which suite ran first.
 */
export async function routeApiTo(context: BrowserContext, target: string): Promise<void> {
  await context.route(`${API_URL}/**`, async (route) => {
    // A chat answer may take longer than the context's default timeout (a local model on two cores).
    const response = await route.fetch({
      url: route.request().url().replace(API_URL, target),
      timeout: 180_000,
    });
    await route.fulfill({ response });
  });
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: artifact(name), fullPage, animations: 'disabled' });
}

/** Polls until `check` returns true, or fails with `what` after the timeout. */
export async function eventually(
  what: string | (() => string),
  check: () => Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `describe` for a flow whose server endpoints exist; otherwise skipped, naming what is missing. */
export function describeWhenServerHas(operations: readonly string[], name: string, body: () => void): void {
  const missing = operations.filter((operation) => (stack.missing as string[]).includes(operation));
  if (missing.length === 0 || process.env.E2E_REQUIRE_ALL === '1') describe(name, body);
  else describe.skip(`${name} — skipped: the server has no ${missing.join(', ')}`, body);
}
