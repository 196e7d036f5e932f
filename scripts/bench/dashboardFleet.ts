// The dashboard's fleet view on the bench's fleet: how long GET /ui/api/fleet takes to answer once the server has read
// the heads (it reads them ahead, at start and whenever a branch moves: the answer a person gets), how long the very
// first answer takes when it has to wait for that read, and how long a browser takes from opening /ui/ to the first
// row of the workloads matrix being on screen; then one answer each of the other views' APIs.
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
  /** One answer each, the heads read: the object view's trace and its placement (explain), changes, attention. */
  objectApiMs: number;
  explainApiMs: number;
  changesApiFirstMs: number;
  changesApiMs: number;
  attentionApiMs: number;
}

export async function measureDashboard(gitdir: string, sourceBranch = 'main'): Promise<DashboardFigures> {
  const served = await serveDashboard({ gitdir, sourceBranch, host: '127.0.0.1', port: 0 });
  try {
    const get = async (route: string, query: string) => {
      const t = performance.now();
      const res = await fetch(`${served.url}/ui/api/${route}?${query}`);
      const body = (await res.json()) as { workloads?: { total: number; items: { key: string }[] }; error?: string };
      if (!res.ok) throw new Error(`GET /ui/api/${route}?${query}: ${res.status} ${body.error}`);
      return { ms: performance.now() - t, total: body.workloads?.total ?? 0, body };
    };
    const timed = (query: string) => get('fleet', query);
    const cold = await timed('limit=50');
    const warm: number[] = [];
    for (let i = 1; i <= 5; i++) warm.push((await timed(`limit=50&offset=${i * 50}&sort=name`)).ms);
    warm.sort((a, b) => a - b);
    // A template from the middle of the fleet, neither the first read nor one the pages above held.
    const key = (await get('fleet', `limit=1&offset=${Math.floor(cold.total / 2)}`)).body.workloads!.items[0]!.key;
    const object = await get('object', new URLSearchParams({ key }).toString());
    const explain = await get('explain', new URLSearchParams({ key }).toString());
    const changesFirst = await get('changes', 'limit=30');
    const changes = await get('changes', 'limit=30');
    const attention = await get('attention', '');
    return {
      objectApiMs: object.ms,
      explainApiMs: explain.ms,
      changesApiFirstMs: changesFirst.ms,
      changesApiMs: changes.ms,
      attentionApiMs: attention.ms,
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
