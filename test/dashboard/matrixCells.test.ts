// The workloads × clusters matrix in a browser: a kind without replicas (a ConfigMap) shows its health on each cluster
// without a count, while a Deployment shows ready/desired, and a control-plane kind (FederatedHPA) says what it is
// instead of a row of dashes; the page is read from a repo's branches, no fleet running.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { serveDashboard, type ServedDashboard } from '../../src/dashboard/serveDashboard.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { openBrowser, type Browser } from '../helpers/browser.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED } from '../views/helpers/fleetRepo.ts';

let repo: TempRepo | undefined;
let served: ServedDashboard | undefined;
let browser: Browser | undefined;
test.after(async () => {
  await browser?.close();
  await served?.close();
  repo?.cleanup();
});

test('a ConfigMap cell shows no 0/0 replica count; a Deployment cell shows ready/desired', async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'templates/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: fast}\n',
    'policies/settings.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
  });
  commitAll(repo, 'Add the settings ConfigMap');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  served = await serveDashboard({ gitdir: repo.path, host: '127.0.0.1', port: 0 });
  browser = await openBrowser();
  await browser.page.goto(`${served.url}/ui/`);
  const row = (name: string) => browser!.page.getByRole('row').filter({ hasText: name });
  await row('settings').waitFor({ timeout: 30_000 });
  const settings = (await row('settings').textContent()) ?? '';
  const nginx = (await row('nginx').textContent()) ?? '';
  await browser.screenshot('matrix-configmap');
  assert.not.match(settings, /\d+\/\d+/, settings);
  assert.match(settings, /Pending/, settings);
  assert.match(nginx, /0\/1/, nginx);
  assert.equal(browser.errors, []);
});

test('a FederatedHPA row says it is a control-plane object, not a workload placed nowhere', async () => {
  writeWorkTree(repo!, {
    'templates/nginx-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: nginx-fhpa, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}
  maxReplicas: 4
`,
  });
  commitAll(repo!, 'Add a FederatedHPA');
  await syncRepo(await openRepo(repo!.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  await browser!.page.goto(`${served!.url}/ui/`);
  const row = browser!.page.getByRole('row').filter({ hasText: 'nginx-fhpa' });
  await row.waitFor({ timeout: 30_000 });
  const text = (await row.textContent()) ?? '';
  assert.match(text, 'control plane: autoscaling.karmada.io is never propagated to clusters');
  assert.not.match(text, '–', text);
  assert.equal(browser!.errors, []);
});

test.run();
