// A real browser for the dashboard's tests: Debian's chromium-headless-shell (installed by .ci/run) driven by
// playwright-core, with a fresh profile each time and nothing that phones home. Screenshots go to
// test-results/screenshots/ (gitignored), where a person can look at them after a run.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium-headless-shell';
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors (a CSP violation is one), for a test to assert there are none. */
  errors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openBrowser(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'flotilla-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return {
    context,
    page,
    errors,
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
