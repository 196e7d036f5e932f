// get and describe show a FederatedHPA-scaled workload's desired replicas as the FederatedHPA's decision, as Karmada's
// template holds it (its FederatedHPA writes spec.replicas), not Git's starting count: READY 4/4, not 4/2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { getCommand } from '../../src/commands/getCommand.ts';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { autoscalerPath, serializeAutoscalerDecision } from '../../src/branches/status/autoscalerDecisions.ts';
import { replicasFromAutoscaler } from '../../src/views/replicasFromMembers.ts';
import { describeFederatedHpa, federatedHpaObject } from '../../src/views/federatedHpaViews.ts';
import { federatedHpaEvents } from '../../src/views/federatedHpaEvents.ts';
import type { HpaCondition } from '../../src/api/conditions.ts';
import type { Template } from '../../src/api/model.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, writeWorkTree } from '../plans/helpers/nginxRepo.ts';
import { makeFleetRepo, RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

let repo: TempRepo;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  writeWorkTree(repo, {
    'templates/fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: nginx, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}
  maxReplicas: 6
`,
  });
  commitAll(repo, 'nginx: a FederatedHPA');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  // A FederatedHPA decision of 4 replicas for nginx (2 in Git), committed on the status branch as the status side does.
  const decision = serializeAutoscalerDecision({
    apiVersion: 'autoscaling.karmada.io/v1alpha1',
    kind: 'FederatedHPA',
    metadata: { namespace: 'default', name: 'nginx' },
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
    desiredReplicas: 4,
    currentReplicas: 2,
    reason: 'cpu resource utilization (percentage of request) above target',
    ableToScale: 'SucceededRescale',
    metrics: [],
    lastScaleTime: '2023-11-15T00:00:00Z',
  });
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: decision }).trim();
  const env = { GIT_INDEX_FILE: `${repo.path}/.git/status-index` };
  repo.git(['read-tree', 'flotilla/status'], { env });
  repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${autoscalerPath('default', 'nginx')}`], { env });
  const tree = repo.git(['write-tree'], { env }).trim();
  const commit = repo.git(['commit-tree', tree, '-p', 'flotilla/status', '-m', 'FederatedHPA default/nginx']).trim();
  repo.git(['update-ref', 'refs/heads/flotilla/status', commit]);
});
test.after(() => repo.cleanup());

const run = (command: typeof getCommand, ...args: string[]) => runReadCommand(command, repo.path, NOW, args);

test("get: the desired count of a FederatedHPA's workload is its decision, in the table and in -o yaml", async () => {
  const table = await run(getCommand, 'deploy', 'nginx');
  assert.is(table.code, 0, table.err);
  assert.match(table.out, /\nnginx +2\/4 +/);
  const yaml = await run(getCommand, 'deploy', 'nginx', '-o', 'yaml');
  assert.is(parse(yaml.out).spec.replicas, 4);
  // A member's copy is what was rendered for it.
  const member = await run(getCommand, 'deploy', 'nginx', '--cluster', 'member1', '-o', 'yaml');
  assert.is(parse(member.out).spec.replicas, 1);
});

test("get fhpa: Karmada's columns, REPLICAS being what the target runs, and the decision as its status", async () => {
  const table = await run(getCommand, 'fhpa');
  assert.is(table.code, 0, table.err);
  const [head, row] = table.out.trimEnd().split('\n');
  assert.match(head!, /^NAME +REFERENCE-KIND +REFERENCE-NAME +MINPODS +MAXPODS +REPLICAS +AGE$/);
  assert.match(row!, /^nginx +Deployment +nginx +1 +6 +2 +/);
  const yaml = parse((await run(getCommand, 'fhpa', 'nginx', '-o', 'yaml')).out);
  assert.equal(yaml.status, { currentReplicas: 2, desiredReplicas: 4, lastScaleTime: '2023-11-15T00:00:00Z' });
});

test('describe: the replicas name the FederatedHPA that governs them and the count in Git', async () => {
  const r = await run(describeCommand, 'deploy', 'nginx');
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /\nReplicas: +4 \(governed by FederatedHPA default\/nginx; 2 in Git\)\n/);
});

test('replicasFromAutoscaler leaves a template without a spec, or without a decision, as it is', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', data: {} };
  assert.is(replicasFromAutoscaler(cm, { replicas: 3 }), cm);
  const web = { spec: { replicas: 2 } };
  assert.is(replicasFromAutoscaler(web, undefined), web);
  assert.equal(replicasFromAutoscaler(web, { replicas: 3 }), { spec: { replicas: 3 } });
  assert.is(web.spec.replicas, 2);
});

test('describe and -o yaml: a ContainerResource metric names its container, in kubectl describe hpa words, and a metric not computed is an empty status entry in its place', () => {
  const manifest = parse(`apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 6
  metrics:
    - type: ContainerResource
      containerResource: {name: cpu, container: app, target: {type: Utilization, averageUtilization: 50}}
    - type: Resource
      resource: {name: memory, target: {type: AverageValue, averageValue: 64Mi}}
`);
  const view = {
    template: {
      ref: { apiVersion: manifest.apiVersion, kind: 'FederatedHPA', namespace: 'default', name: 'web' },
      manifest,
      source: { file: 'templates/web-fhpa.yaml', line: 1 },
    } as unknown as Template,
    decision: {
      apiVersion: 'autoscaling.karmada.io/v1alpha1' as const,
      kind: 'FederatedHPA' as const,
      metadata: { namespace: 'default', name: 'web' },
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      desiredReplicas: 4,
      currentReplicas: 1,
      reason: 'cpu container resource utilization (percentage of request) above target',
      ableToScale: 'SucceededRescale',
      metrics: [
        {
          resource: 'cpu',
          container: 'app',
          targetUtilization: 50,
          currentUtilization: 200,
          currentAverageValue: '100m',
          pods: {},
        },
      ],
      lastScaleTime: '2023-11-15T00:00:00Z',
    },
  };
  const text = describeFederatedHpa(view);
  assert.match(
    text,
    /^ {2}resource cpu of container "app" on pods {2}\(as a percentage of request\): {2}200% \(100m\) \/ 50%$/m,
  );
  assert.match(text, /^ {2}resource memory on pods: {2}<unknown> \/ 64Mi$/m);
  const status = federatedHpaObject(view).status as { currentMetrics: unknown[] };
  assert.equal(status.currentMetrics, [
    {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 200, averageValue: '100m' } },
    },
    { type: '' },
  ]);
});

test("describe fhpa: Events are what the controller recorded, from the decision file's status commits", async () => {
  // A later pass finds the workload on no Ready cluster: Karmada's FailedGetScale warning, no rescale.
  const held = serializeAutoscalerDecision({
    apiVersion: 'autoscaling.karmada.io/v1alpha1',
    kind: 'FederatedHPA',
    metadata: { namespace: 'default', name: 'nginx' },
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
    desiredReplicas: 4,
    currentReplicas: 4,
    reason: 'the workload runs in no Ready target cluster',
    ableToScale: 'FailedGetScale',
    metrics: [],
    lastScaleTime: '2023-11-15T00:00:00Z',
    conditions: [
      {
        type: 'AbleToScale',
        status: 'False',
        reason: 'FailedGetScale',
        message:
          "the HPA controller was unable to get the target's current scale: failed to get replicas in any of clusters, possibly because all of clusters are not ready",
      },
    ],
  });
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: held }).trim();
  const env = { GIT_INDEX_FILE: `${repo.path}/.git/status-index` };
  repo.git(['read-tree', 'flotilla/status'], { env });
  repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${autoscalerPath('default', 'nginx')}`], { env });
  const tree = repo.git(['write-tree'], { env }).trim();
  const at = `@${Math.floor(NOW.getTime() / 1000) - 120} +0000`;
  const commit = repo
    .git(['commit-tree', tree, '-p', 'flotilla/status', '-m', 'FederatedHPA default/nginx keeps 4'], {
      env: { GIT_COMMITTER_DATE: at, GIT_AUTHOR_DATE: at },
    })
    .trim();
  repo.git(['update-ref', 'refs/heads/flotilla/status', commit]);
  const r = await run(describeCommand, 'fhpa', 'nginx');
  assert.is(r.code, 0, r.err);
  const events = r.out
    .slice(r.out.indexOf('\nEvents:\n') + 1)
    .trimEnd()
    .split('\n');
  assert.match(events[1]!, /^ {2}Type +Reason +Age +From +Message$/);
  assert.match(events[2]!, /^ {2}---- +------ +---- +---- +-------$/);
  assert.match(
    events[3]!,
    /^ {2}Normal +SuccessfulRescale +\S+ +federatedHPA-controller +New size: 4; reason: cpu resource utilization \(percentage of request\) above target$/,
  );
  assert.match(
    events[4]!,
    /^ {2}Warning +FailedGetScale +2m +federatedHPA-controller +failed to get replicas in any of clusters, possibly because all of clusters are not ready$/,
  );
  assert.is(events.length, 5);
});

test("FederatedHPA events: a condition turning False is Karmada's warning, with its event reason and message, once", () => {
  const file = (conditions: HpaCondition[]) => ({
    apiVersion: 'autoscaling.karmada.io/v1alpha1' as const,
    kind: 'FederatedHPA' as const,
    metadata: { namespace: 'default', name: 'web' },
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    desiredReplicas: 2,
    currentReplicas: 2,
    reason: 'no policy propagates the workload',
    ableToScale: conditions[0]!.reason,
    metrics: [],
    conditions,
  });
  const binding: HpaCondition = {
    type: 'AbleToScale',
    status: 'False',
    reason: 'FailedGetBinding',
    message: 'the HPA controller was unable to get the binding by scaleTargetRef: target resource has no label',
  };
  const metric: HpaCondition = {
    type: 'ScalingActive',
    status: 'False',
    reason: 'FailedGetResourceMetric',
    message:
      'the HPA was unable to compute the replica count: failed to get cpu utilization: did not receive metrics for any ready pods',
  };
  const first = file([binding]);
  const second = file([{ ...binding, status: 'True', reason: 'SucceededGetScale', message: '' }, metric]);
  const third = file([binding, metric]);
  assert.equal(
    federatedHpaEvents([
      { at: 3000, file: third, before: second },
      { at: 1000, file: first, before: null },
      { at: 2000, file: second, before: first },
    ]).map((e) => `${e.type} ${e.reason}: ${e.message}`),
    [
      'Warning FailedGetBindings: target resource has no label',
      'Warning FailedGetResourceMetric: failed to get cpu utilization: did not receive metrics for any ready pods',
      'Warning FailedGetBindings: target resource has no label',
    ],
  );
});

test('get fhpa reads the FederatedHPAs of the commit asked for, added or removed since the last render', async () => {
  const { repo: r } = await makeFleetRepo();
  try {
    const fhpa = (name: string) =>
      `apiVersion: autoscaling.karmada.io/v1alpha1\nkind: FederatedHPA\nmetadata: {name: ${name}, namespace: default}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nginx}\n  maxReplicas: 3\n`;
    writeWorkTree(r, { 'templates/first.yaml': fhpa('first') });
    commitAll(r, 'first FederatedHPA');
    await syncRepo(await openRepo(r.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    const names = async () => (await runReadCommand(getCommand, r.path, NOW, ['fhpa', '-o', 'name'])).out;
    writeWorkTree(r, { 'templates/second.yaml': fhpa('second') });
    commitAll(r, 'second FederatedHPA, not rendered');
    assert.is(await names(), 'federatedhpa.autoscaling.karmada.io/first\nfederatedhpa.autoscaling.karmada.io/second\n');
    writeWorkTree(r, { 'templates/first.yaml': null });
    commitAll(r, 'first removed, not rendered');
    assert.is(await names(), 'federatedhpa.autoscaling.karmada.io/second\n');
  } finally {
    r.cleanup();
  }
});

test.run();
