// The dashboard in a real browser over a real fleet: three emulated members registered in Git, the reconciler
// `flotilla run` starts (in-process, its listener serving /ui/), git pushes to the bare repo, and Chromium reading the
// page. Every wait is on something the page shows; the page is never reloaded after it opens.
import type { Locator } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDashboard, type Dashboard } from '../../src/dashboard/createDashboard.ts';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { openBrowser, type Browser } from '../helpers/browser.ts';
import {
  clusterRegistration,
  type Fleet,
  makeFleet,
  nginxPolicy,
  reconcilerOptions,
  sample,
} from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const WAIT = { timeout: 60_000 };
const text = async (l: Locator) => (await l.textContent()) ?? '';

let fleet: Fleet | undefined;
let reconciler: Reconciler | undefined;
let dashboard: Dashboard | undefined;
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  await dashboard?.close();
  await reconciler?.stop();
  await fleet?.cleanup();
});

test('the fleet view shows member1..3 and nginx 2/2, follows a push to 4/4 and its commit live, traces nginx to member1 with its blame, and lists a stopped member under needs attention', async () => {
  fleet = await makeFleet({ members: MEMBERS, readyDelayMs: 200 });
  const events = new LogEvents();
  reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, {
      listen: { host: '127.0.0.1', port: 0 },
      routes: (req, res) => dashboard?.handle(req, res) ?? Promise.resolve(false),
      statusUpdateFrequencyMs: 500,
      catchUp: { intervalMs: 200, forMs: 20_000 },
      readyThresholds: { failureMs: 500, successMs: 500 },
    }),
  );
  dashboard = await createDashboard({ gitdir: reconciler.repo.gitdir, log: events.log });
  fleet.push(
    {
      ...Object.fromEntries(MEMBERS.map((m) => [`clusters/${m}.yaml`, clusterRegistration(m)])),
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': nginxPolicy(),
    },
    'nginx: weighted 1:1 over member1 and member2',
  );

  browser = await openBrowser();
  const { page } = browser;
  await page.goto(`${reconciler.url}/ui/`);
  // Set once: a reload would lose it, so finding it at the end proves the page updated itself.
  await page.evaluate(() => {
    (window as unknown as { openedOnce: boolean }).openedOnce = true;
  });
  // Keyboard first: the first Tab reaches the skip link, and focus is drawn.
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  assert.is.not(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle), 'none');
  const clusters = page.getByRole('table', { name: 'Clusters' });
  for (const m of MEMBERS) await clusters.getByRole('rowheader', { name: m }).waitFor(WAIT);
  const nginxRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'nginx', exact: true }) });
  await nginxRow.locator('td.ready', { hasText: /^2\/2$/ }).waitFor(WAIT);
  assert.match(await text(nginxRow), /1\/1\s+✓ Healthy[\s\S]*1\/1\s+✓ Healthy/);
  // Times read as kubectl's ages, the timestamp itself on hover.
  const readyChanged = clusters
    .getByRole('row', { name: /member1/ })
    .locator('time')
    .first();
  assert.match(await text(readyChanged), /^\d+s ago$/);
  assert.match((await readyChanged.getAttribute('title')) ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  await browser.screenshot('fleet-2-replicas');

  const message = 'nginx: 4 replicas <script>window.injected = true</script>';
  fleet.push(
    { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') },
    message,
  );
  await nginxRow.locator('td.ready', { hasText: /^4\/4$/ }).waitFor(WAIT);
  assert.match(await text(nginxRow), /2\/2\s+✓ Healthy[\s\S]*2\/2\s+✓ Healthy/);
  await page.getByRole('link', { name: 'Changes' }).click();
  // The subject shows as the text it is: markup in a commit message never becomes markup on the page.
  const commit = page.locator('li.commit', { hasText: message });
  await commit.waitFor(WAIT);
  assert.match(await text(commit), /member1: 1 changed/);
  // The fleet's commits are dated from 2023-11-14 on: years ago, as kubectl would print it.
  assert.match(await text(commit.locator('time')), /^\dy\d+d ago$/);
  assert.match((await commit.locator('time').getAttribute('title')) ?? '', /^2023-11-1\dT[\d:]+\+00:00$/);
  await browser.screenshot('changes');

  await page.getByRole('link', { name: 'Fleet', exact: true }).click();
  // By keyboard: focus the link and press Enter.
  await page.getByRole('link', { name: 'nginx', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Deployment default/nginx' }).waitFor(WAIT);
  // explain: the source line, and each cluster's scheduling result with its reason.
  await page.getByText('templates/nginx.yaml:1:1').waitFor(WAIT);
  await page.getByRole('row', { name: /member3\s+filtered\s+–\s+ClusterAffinity/ }).waitFor(WAIT);
  const member1 = page.locator('section.cluster-trace', { has: page.getByRole('heading', { name: 'member1' }) });
  await member1.getByText('Rendered manifest').click();
  const manifest = member1.getByRole('region', { name: 'member1 rendered manifest' }).or(member1.locator('pre.yaml'));
  assert.match(await text(manifest), /replicas: 2\n/);
  assert.match(await text(manifest), /flotilla\.io\/source-commit: [0-9a-f]{40}/);
  await member1.getByText('What overrides changed').click();
  assert.match(await text(member1.locator('pre.diff')), /-\s+replicas: 4\n\+\s+replicas: 2/);
  const blame = member1.locator('dl.blame');
  await blame.getByText(message).waitFor(WAIT);
  assert.match(await text(blame), /Ada <ada@example\.com> \dy\d+d ago/);
  await browser.screenshot('object-nginx');

  await fleet.members[2]!.stop();
  await page.getByRole('link', { name: 'Needs attention' }).click();
  await page.getByRole('link', { name: /member3 Ready=False/ }).waitFor(WAIT);
  await browser.screenshot('needs-attention');
  // On a phone the page keeps to the screen's width: wide tables scroll inside their own regions.
  await page.setViewportSize({ width: 390, height: 844 });
  await browser.screenshot('needs-attention-phone');
  await page.getByRole('link', { name: 'Fleet', exact: true }).click();
  await nginxRow.waitFor(WAIT);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  await browser.screenshot('fleet-phone');

  assert.ok(await page.evaluate(() => (window as unknown as { openedOnce?: boolean }).openedOnce));
  assert.is(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected), undefined);
  assert.equal(browser.errors, []);
});

test.run();
