// A fleet wider than the page: 25 clusters registered in Git, one Deployment duplicated onto all of them, rendered by
// syncRepo and read by a real browser. The matrix lays out a window of cluster columns with a pager, so 100 clusters
// cost a fifth of the cells; the modules the page imports are preloaded with it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { serveDashboard, type ServedDashboard } from '../../src/dashboard/serveDashboard.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { openBrowser, type Browser } from '../helpers/browser.ts';
import { makeTempRepo, writeWorkTree, commitAll, type TempRepo } from '../commits/helpers/tempRepo.ts';
import { clusterYaml, DEPLOYMENT } from '../plans/helpers/nginxRepo.ts';

const CLUSTERS = Array.from({ length: 25 }, (_, i) => `member${String(i + 1).padStart(2, '0')}`);
const WAIT = { timeout: 60_000 };
let repo: TempRepo | undefined;
let served: ServedDashboard | undefined;
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  await served?.close();
  repo?.cleanup();
});

test('the clusters table shows 20 rows and the matrix 20 cluster columns at a time, each pages to the rest, and every cell of a window is there', async () => {
  repo = makeTempRepo();
  writeWorkTree(repo, {
    ...Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterYaml(c)])),
    'templates/deployment.yaml': DEPLOYMENT,
    'policies/everywhere.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: everywhere\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n      name: nginx\n  placement:\n    replicaScheduling:\n      replicaSchedulingType: Duplicated\n',
  });
  commitAll(repo, 'nginx on 25 clusters');
  await syncRepo(await openRepo(repo.path), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
  served = await serveDashboard({ gitdir: `${repo.path}/.git`, host: '127.0.0.1', port: 0 });
  browser = await openBrowser();
  const { page } = browser;
  const preloads: string[] = [];
  page.on('request', (r) => {
    if (/\/ui\/(vendor|shared)\//.test(r.url())) preloads.push(new URL(r.url()).pathname);
  });
  await page.goto(`${served.url}/ui/`);
  const matrix = page.locator('table.matrix');
  await matrix.locator('tbody tr a', { hasText: 'nginx' }).waitFor(WAIT);
  // The clusters table shows 20 rows at a time too, so the matrix below it stays near the top of the page.
  const clusterRows = page.locator('table.clusters tbody tr');
  assert.is(await clusterRows.count(), 20);
  const rowPager = page.getByRole('navigation', { name: 'Cluster rows' });
  assert.match((await rowPager.textContent()) ?? '', '1–20 of 25 clusters');
  await rowPager.getByRole('button', { name: 'Next cluster rows' }).click();
  await rowPager.getByText('21–25 of 25 clusters').waitFor(WAIT);
  assert.match(page.url(), /[?&]rows=20(&|$)/);
  assert.equal(
    (await page.locator('table.clusters tbody th').allTextContents()).map((t) => t.trim()),
    CLUSTERS.slice(20),
  );
  const headers = async () => (await matrix.locator('thead th').allTextContents()).map((t) => t.trim());
  assert.equal((await headers()).slice(4), CLUSTERS.slice(0, 20));
  assert.is(await matrix.locator('tbody td.cell').count(), 20);
  const pager = page.getByRole('navigation', { name: 'Cluster columns' });
  assert.match((await pager.textContent()) ?? '', 'clusters 1–20 of 25');
  await pager.getByRole('button', { name: 'Next clusters' }).click();
  await pager.getByText('clusters 21–25 of 25').waitFor(WAIT);
  assert.equal((await headers()).slice(4), CLUSTERS.slice(20));
  assert.match((await matrix.locator('tbody td.cell').first().textContent()) ?? '', '/2');
  assert.ok(await pager.getByRole('button', { name: 'Next clusters' }).isDisabled());
  // Where both pagers stand is in the address: a reload (or a link) shows the same rows and columns.
  assert.match(page.url(), /[?&]columns=20(&|$)/);
  await page.reload();
  await pager.getByText('clusters 21–25 of 25').waitFor(WAIT);
  await rowPager.getByText('21–25 of 25 clusters').waitFor(WAIT);
  assert.equal((await headers()).slice(4), CLUSTERS.slice(20));
  // Filtering on one cluster shows that column alone, and no column pager.
  await page.locator('form.filters select').nth(2).selectOption('member25');
  await page.waitForFunction(() => document.querySelectorAll('table.matrix thead th').length === 5, null, WAIT);
  assert.is(await pager.count(), 0);
  // Back and Forward put the address's filter in the fields as well as in the rows.
  const nameField = page.getByRole('textbox', { name: 'Name' });
  await nameField.fill('nothing-by-this-name');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('No workload matches these filters.').waitFor(WAIT);
  await page.goBack();
  await matrix.locator('tbody tr a', { hasText: 'nginx' }).waitFor(WAIT);
  assert.is(await nameField.inputValue(), '');
  await page.goForward();
  await page.getByText('No workload matches these filters.').waitFor(WAIT);
  assert.is(await nameField.inputValue(), 'nothing-by-this-name');
  assert.equal([...new Set(preloads)].sort(), [
    '/ui/shared/humanDuration.mjs',
    '/ui/vendor/hooks.mjs',
    '/ui/vendor/htm.mjs',
    '/ui/vendor/preact.mjs',
  ]);
  assert.equal(browser.errors, []);
  await browser.screenshot('wide-fleet-columns');
});

test.run();
