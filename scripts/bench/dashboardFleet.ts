// The dashboard's fleet view on the bench's fleet: how long GET /ui/api/fleet takes to answer once the server has read
// the heads (it reads them ahead, at start and whenever a branch moves: the answer a person gets), how long the very
// first answer takes when it has to wait for that read, and how long a browser takes from opening /ui/ to the first
// row of the workloads matrix being on screen.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { serveDashboard } from '../../src/dashboard/serveDashboard.ts';

const CHROMIUM = '/usr/bin/chromium-headless-shell';

export interface DashboardFigures {
  /** The first /ui/api/fleet answer right after start: it waits for the heads to be read (index, clusters). */
  fleetApiColdMs: number;
  /** Median of five other pages and sorts, the heads read: what a request gets between branch moves. */
  fleetApiMs: number;
  /** Open /ui/ → the first matrix row shown; null without a browser on this machine. */
  interactiveMs: number | null;
  workloads: number;
}

export async function measureDashboard(gitdir: string, sourceBranch = 'main'): Promise<DashboardFigures> {
  const served = await serveDashboard({ gitdir, sourceBranch, host: '127.0.0.1', port: 0 });
  try {
    const timed = async (query: string) => {
      const t = performance.now();
      const res = await fetch(`${served.url}/ui/api/fleet?${query}`);
      const body = (await res.json()) as { workloads?: { total: number }; error?: string };
      if (!res.ok) throw new Error(`GET /ui/api/fleet?${query}: ${res.status} ${body.error}`);
      return { ms: performance.now() - t, total: body.workloads?.total ?? 0 };
    };
    const cold = await timed('limit=50');
    const warm: number[] = [];
    for (let i = 1; i <= 5; i++) warm.push((await timed(`limit=50&offset=${i * 50}&sort=name`)).ms);
    warm.sort((a, b) => a - b);
    return {
      fleetApiColdMs: cold.ms,
      fleetApiMs: warm[2]!,
      interactiveMs: existsSync(CHROMIUM) ? await measureInteractive(served.url) : null,
      workloads: cold.total,
    };
  } finally {
    await served.close();
  }
}

async function measureInteractive(url: string): Promise<number> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'flotilla-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const t = performance.now();
    await page.goto(`${url}/ui/`);
    await page.locator('table.matrix tbody tr a').first().waitFor({ timeout: 60_000 });
    return performance.now() - t;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
