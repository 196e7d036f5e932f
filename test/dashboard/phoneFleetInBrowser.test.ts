// The fleet view on a phone (390 px wide, as an iPhone 12-15 reports itself): rows of the same name in different
// namespaces and kinds told apart, and a cluster cell visible on every row without scrolling; the matrix scrolls
// sideways inside its own region, never the page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { serveDashboard, type ServedDashboard } from '../../src/dashboard/serveDashboard.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from '../commits/helpers/tempRepo.ts';
import { openBrowser, type Browser } from '../helpers/browser.ts';
import { clusterYaml } from '../plans/helpers/nginxRepo.ts';

const CLUSTERS = ['member1', 'member2', 'member3', 'member4', 'member5'];
const PHONE = { width: 390, height: 844 };
const WAIT = { timeout: 60_000 };
let repo: TempRepo | undefined;
let served: ServedDashboard | undefined;
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  await served?.close();
  repo?.cleanup();
});

const deployment = (namespace: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ${namespace}\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n`;
const SERVICE =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n';
const EVERYWHERE =
  'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: everywhere\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n    - apiVersion: v1\n      kind: Service\n  placement:\n    replicaScheduling:\n      replicaSchedulingType: Duplicated\n';

test('at 390 px each workload row shows its name, namespace and kind and its first cluster cell; only the tables scroll sideways, their names kept in view', async () => {
  repo = makeTempRepo();
  writeWorkTree(repo, {
    ...Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterYaml(c)])),
    'templates/web-default.yaml': deployment('default'),
    'templates/web-shop.yaml': deployment('shop'),
    'templates/web-service.yaml': SERVICE,
    'templates/long.yaml': deployment('default').replace(
      'name: web\n',
      'name: payments-gateway-reconciliation-worker\n',
    ),
    'policies/everywhere.yaml': EVERYWHERE,
  });
  commitAll(repo, 'web in two namespaces, and its Service');
  await syncRepo(await openRepo(repo.path), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
  served = await serveDashboard({ gitdir: `${repo.path}/.git`, host: '127.0.0.1', port: 0 });
  browser = await openBrowser(PHONE);
  const { page } = browser;
  await page.goto(`${served.url}/ui/`);
  const matrix = page.locator('table.matrix');
  const rows = matrix.locator('tbody tr');
  await rows.nth(3).waitFor(WAIT);
  await browser.screenshot('phone-fleet');
  const region = page.getByRole('region', { name: 'Workloads by cluster' });
  const within = (box: { x: number; width: number } | null, what: string) => {
    assert.ok(box, `${what} is laid out`);
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${what} spans ${box.x}..${box.x + box.width}`);
  };
  // Sorted by namespace, then kind, then name (the default): each row says which of the three "web" it is.
  const expected = [
    ['payments-gateway-reconciliation-worker', 'default · Deployment'],
    ['web', 'default · Deployment'],
    ['web', 'shop · Deployment'],
    ['web', 'shop · Service'],
  ];
  for (const [i, [name, where]] of expected.entries()) {
    const row = rows.nth(i);
    const header = row.getByRole('rowheader');
    assert.is((await header.getByRole('link').textContent())?.trim(), name);
    const sub = header.locator('.where');
    assert.is((await sub.textContent())?.trim(), where);
    within(await sub.boundingBox(), `row ${i + 1}'s namespace and kind`);
    const cell = row.locator('td.cell').first();
    within(await cell.boundingBox(), `row ${i + 1}'s member1 cell`);
    assert.match((await cell.textContent()) ?? '', 'Pending');
  }
  within(await matrix.getByRole('columnheader', { name: 'member1' }).boundingBox(), 'the member1 column header');
  // The page itself never scrolls sideways; the matrix does, inside its region, and the names stay beside the cells.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await region.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  const regionBox = (await region.boundingBox())!;
  const scrolledName = (await rows.nth(1).getByRole('rowheader').boundingBox())!;
  assert.ok(Math.abs(scrolledName.x - regionBox.x) <= 2, `the name column stays at the left edge: ${scrolledName.x}`);
  within(await rows.nth(1).locator('td.cell').last().boundingBox(), "row 2's member5 cell, scrolled to");
  // The clusters table above keeps its names in view the same way.
  const clusters = page.getByRole('region', { name: 'Clusters', exact: true });
  await clusters.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  const clustersBox = (await clusters.boundingBox())!;
  const member1 = (await clusters.getByRole('rowheader', { name: 'member1' }).boundingBox())!;
  assert.ok(Math.abs(member1.x - clustersBox.x) <= 2, `the cluster names stay at the left edge: ${member1.x}`);
  await browser.screenshot('phone-fleet-scrolled');
  // Namespace and kind sort from the name column's header, their own columns being hidden.
  const kind = matrix.getByRole('columnheader').first().getByRole('button', { name: /^Kind/ });
  within(await kind.boundingBox(), 'the Kind sort button');
  await kind.click();
  await matrix.getByRole('button', { name: /^Kind\s*, sorted ascending$/ }).waitFor(WAIT);
  await kind.click();
  await matrix.getByRole('button', { name: /^Kind\s*, sorted descending$/ }).waitFor(WAIT);
  await page.waitForFunction(
    () => document.querySelector('table.matrix tbody tr .where')?.textContent?.trim() === 'shop · Service',
    null,
    WAIT,
  );
  // The object view of the long name keeps to the screen too: its rendered paths break, its tables scroll.
  await matrix.getByRole('link', { name: 'payments-gateway-reconciliation-worker' }).click();
  await page.getByText('Rendered manifest').first().waitFor(WAIT);
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    'the object view fits 390 px',
  );
  await browser.screenshot('phone-object');
  await page.goBack();
  await rows.nth(3).waitFor(WAIT);
  // At 1280 px the same page has its Namespace and Kind columns back and nothing under the names.
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.ok(await matrix.getByRole('columnheader', { name: /^Namespace/ }).isVisible());
  assert.not.ok(await rows.first().locator('.where').isVisible());
  assert.equal(browser.errors, []);
});

test.run();
