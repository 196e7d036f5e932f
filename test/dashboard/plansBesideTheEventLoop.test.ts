// The dashboard's plans and validation list render whole commits on a thread of their own, mounted on the reconciler's
// endpoints as `flotilla run` mounts them: /healthz answers while a plan renders, a plan past its thread's memory is
// refused with the reason and the command that has no such bound, closing ends the thread, and the validation list
// from that thread is the one the views give.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planCommand } from '../../src/commands/planCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { createDashboard, type Dashboard } from '../../src/dashboard/createDashboard.ts';
import { validationItems } from '../../src/dashboard/readAttention.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { createReconcilerMetrics } from '../../src/passes/createReconcilerMetrics.ts';
import { serveEndpoints, type Endpoints } from '../../src/passes/serveEndpoints.ts';
import { readExplanations } from '../../src/views/readExplanations.ts';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from '../commits/helpers/tempRepo.ts';
import { scaledSample } from '../plans/helpers/nginxRepo.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';
import { makeFleetRepo, RENDERED } from '../views/helpers/fleetRepo.ts';

const CLUSTERS = 30;
const DEPLOYMENTS = 300;
/** A kubelet's probe asks every few seconds; these are asked back to back, a plan's worth of probes and more. */
const HEALTH_CHECKS = 20;

let fleet: TempRepo;

test.before(() => {
  // Every Deployment on every cluster: 9,000 manifests a revision, a plan the event loop would feel for seconds.
  fleet = makeTempRepo();
  const files: Record<string, string> = {
    'policies/everywhere.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: everywhere
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          fleet: wide
`,
  };
  for (let i = 0; i < CLUSTERS; i++)
    files[`clusters/c${i}.yaml`] =
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: c${i}\n  labels:\n    fleet: wide\nspec:\n  syncMode: Push\n`;
  for (let i = 0; i < DEPLOYMENTS; i++) files[`templates/d${i}.yaml`] = deployment(`d${i}`, 2);
  writeWorkTree(fleet, files);
  commitAll(fleet, 'A wide fleet');
  writeWorkTree(fleet, { 'templates/d0.yaml': deployment('d0', 3) });
  commitAll(fleet, 'Scale d0 to 3');
});
test.after(() => fleet?.cleanup());

function deployment(name: string, replicas: number): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels:\n      app: ${name}\n  template:\n    metadata:\n      labels:\n        app: ${name}\n    spec:\n      containers:\n      - image: nginx\n        name: nginx\n`;
}

/** The dashboard on the reconciler's endpoints, as flotilla run serves both; `planStarted` resolves as a plan starts. */
async function serveOnEndpoints(
  gitdir: string,
  jobMemoryMb?: number,
): Promise<{ url: string; planStarted: Promise<void>; dashboard: Dashboard; endpoints: Endpoints }> {
  let started = () => {};
  const planStarted = new Promise<void>((resolve) => (started = resolve));
  const dashboard = await createDashboard({
    gitdir,
    log: (e) => e.plan === 'start' && started(),
    ...(jobMemoryMb ? { jobMemoryMb } : {}),
  });
  const endpoints = await serveEndpoints({
    host: '127.0.0.1',
    port: 0,
    metrics: createReconcilerMetrics('plans-beside-the-event-loop'),
    readiness: () => ({ ready: true, reason: '' }),
    webhookSecret: undefined,
    onWebhook: () => {},
    log: () => {},
    routes: dashboard.handle,
  });
  return { url: endpoints.url, planStarted, dashboard, endpoints };
}

test('while a plan renders, /healthz answers: the plan runs beside the event loop, not on it', async () => {
  const { url, planStarted, dashboard, endpoints } = await serveOnEndpoints(fleet.path);
  try {
    const answered: string[] = [];
    // One revision against itself: both renders read the same objects, so the render has no wait on I/O in between
    // where a request could be answered on the loop anyway.
    const plan = fetch(`${url}/ui/api/plan?base=main&head=main`).then(async (res) => {
      answered.push('plan');
      return { status: res.status, body: (await res.json()) as { head: string; clusters: object } };
    });
    await planStarted;
    // Asked one after another, so a render on the loop cannot let them all through in the reads before it starts.
    for (let i = 0; i < HEALTH_CHECKS; i++) {
      const health = await fetch(`${url}/healthz`);
      assert.is(health.status, 200);
      assert.is(await health.text(), 'ok\n');
    }
    answered.push('healthz');
    const { status, body } = await plan;
    assert.equal(answered, ['healthz', 'plan']);
    assert.is(status, 200, JSON.stringify(body));
    assert.is(body.head, fleet.git(['rev-parse', 'main']).trim());
    assert.equal(body.clusters, {});
  } finally {
    await dashboard.close();
    await endpoints.close();
  }
});

test("a plan past its thread's memory is refused with the bound and the command that renders without it, and the server answers on", async () => {
  const { url, dashboard, endpoints } = await serveOnEndpoints(fleet.path, 32);
  try {
    const res = await fetch(`${url}/ui/api/plan?base=main~1&head=main`);
    assert.is(res.status, 422);
    const { error } = (await res.json()) as { error: string };
    const [base, head] = fleet.git(['rev-parse', 'main~1', 'main']).trim().split('\n');
    assert.match(error, `the plan of ${base!.slice(0, 12)}..${head!.slice(0, 12)} needed more than 32 MB`);
    assert.match(error, `run flotilla plan --base ${base} --head ${head}`);
    assert.is((await fetch(`${url}/healthz`)).status, 200);
  } finally {
    await dashboard.close();
    await endpoints.close();
  }
});

test("closing the dashboard ends a plan's thread, and the plan is answered 503 with the reason", async () => {
  const { url, planStarted, dashboard, endpoints } = await serveOnEndpoints(fleet.path);
  try {
    const plan = fetch(`${url}/ui/api/plan?base=main~1&head=main`);
    await planStarted;
    await dashboard.close();
    const res = await plan;
    assert.is(res.status, 503);
    assert.match(((await res.json()) as { error: string }).error, 'the dashboard is closing');
  } finally {
    await endpoints.close();
  }
});

test("a plan from the dashboard's thread is `flotilla plan -o json`'s", async () => {
  const { repo } = await makeFleetRepo();
  try {
    repo.git(['checkout', '-q', '-b', 'feature']);
    const scaled = scaledSample();
    writeWorkTree(repo, {
      'templates/deployment.yaml': scaled.deployment,
      'policies/propagationpolicy.yaml': scaled.policy,
    });
    commitAll(repo, 'Scale nginx');
    const cli = commonOptions(repo.path, 'json');
    await planCommand({ ...cli, base: 'main', head: 'feature', format: 'json' });
    const { url, dashboard, endpoints } = await serveOnEndpoints(repo.path);
    try {
      const res = await fetch(`${url}/ui/api/plan?base=main&head=feature`);
      assert.is(res.status, 200);
      const body = (await res.json()) as { replicas: unknown[] };
      assert.ok(body.replicas.length > 0, 'the plan moves replicas');
      assert.equal(body, JSON.parse(cli.stdout()));
    } finally {
      await dashboard.close();
      await endpoints.close();
    }
  } finally {
    repo.cleanup();
  }
});

test("the validation list, rendered on the plans' thread, is the source head's errors as the views read them", async () => {
  const { repo } = await makeFleetRepo();
  try {
    writeWorkTree(repo, {
      'policies/broken.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: broken\nspec:\n  resourceSelectors: 7\n',
    });
    commitAll(repo, 'A broken policy');
    const git = await openRepo(repo.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    const explained = await readExplanations(git, { rev: 'refs/heads/main', outputRef: RENDERED, now: new Date() });
    const { url, dashboard, endpoints } = await serveOnEndpoints(repo.path);
    try {
      const res = await fetch(`${url}/ui/api/validation`);
      assert.is(res.status, 200);
      const body = (await res.json()) as { heads: { source: string }; items: { source: { file: string } }[] };
      assert.is(body.heads.source, repo.git(['rev-parse', 'main']).trim());
      assert.equal(body.items, validationItems([...explained.model.problems, ...explained.output.problems]));
      assert.is(body.items[0]?.source.file, 'policies/broken.yaml');
    } finally {
      await dashboard.close();
      await endpoints.close();
    }
  } finally {
    repo.cleanup();
  }
});

test.run();
