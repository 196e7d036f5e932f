import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { quotaUsage } from '../../src/members/resources/quotaUsage.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A ResourceQuota's status on a member, as kube-controller-manager's resource quota controller keeps it: hard is
// spec.hard, used what the namespace uses of each name hard lists. A FederatedResourceQuota's status is the sum of these.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const objects = `apiVersion: v1
kind: ResourceQuota
metadata: {name: team, namespace: default}
spec:
  hard:
    pods: "10"
    count/pods: "10"
    count/configmaps: "5"
    count/deployments.apps: "2"
    requests.cpu: "2"
    requests.memory: 2Gi
    limits.cpu: "4"
    limits.memory: 4Gi
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 250m, memory: 128Mi}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
`;

test('a ResourceQuota reports what its namespace uses of each resource it limits', async () => {
  assert.is((await kubectl(['apply', '-f', '-'], objects)).code, 0);
  const status = await waitFor('the quota counts both pods', async () => {
    const s = JSON.parse((await kubectl(['get', 'quota', 'team', '-o', 'json'])).stdout).status;
    return s?.used?.pods === '2' ? s : undefined;
  });
  assert.equal(status.hard, {
    'count/configmaps': '5',
    'count/deployments.apps': '2',
    'count/pods': '10',
    'limits.cpu': '4',
    'limits.memory': '4Gi',
    pods: '10',
    'requests.cpu': '2',
    'requests.memory': '2Gi',
  });
  // count/configmaps includes the namespace's kube-root-ca.crt, as on a real cluster.
  assert.equal(status.used, {
    'count/configmaps': '2',
    'count/deployments.apps': '1',
    'count/pods': '2',
    'limits.cpu': '500m',
    'limits.memory': '256Mi',
    pods: '2',
    'requests.cpu': '200m',
    'requests.memory': '128Mi',
  });
});

const pod = (spec: Record<string, unknown>, status: Record<string, unknown> = { phase: 'Running' }) => ({
  metadata: { name: 'p', namespace: 'default' },
  spec,
  status,
});

test('a pod whose containers do not request what a quota limits is forbidden, naming the quota and the containers', async () => {
  assert.is((await kubectl(['create', 'namespace', 'strict'])).code, 0);
  assert.is(
    (await kubectl(['-n', 'strict', 'create', 'quota', 'cpu', '--hard=requests.cpu=1,limits.memory=1Gi'])).code,
    0,
  );
  const run = await kubectl(['-n', 'strict', 'run', 'bare', '--image=nginx']);
  assert.is.not(run.code, 0);
  assert.match(
    run.stderr,
    'Error from server (Forbidden): pods "bare" is forbidden: failed quota: cpu: must specify limits.memory for: bare; requests.cpu for: bare',
  );
  // A limit alone defaults the request (SetDefaults_Pod), so it satisfies both.
  const limited = await kubectl([
    '-n',
    'strict',
    'run',
    'limited',
    '--image=nginx',
    '--overrides={"spec":{"containers":[{"name":"limited","image":"nginx","resources":{"limits":{"cpu":"500m","memory":"256Mi"}}}]}}',
  ]);
  assert.is(limited.code, 0, limited.stderr);
});

test("a create past a quota's hard is forbidden; a Deployment's ReplicaSet and the Deployment say so, and the pod comes once the quota allows it", async () => {
  assert.is((await kubectl(['create', 'namespace', 'small'])).code, 0);
  assert.is((await kubectl(['-n', 'small', 'create', 'quota', 'two', '--hard=pods=2,count/configmaps=2'])).code, 0);
  // kube-root-ca.crt is one of the two ConfigMaps.
  assert.is((await kubectl(['-n', 'small', 'create', 'configmap', 'a'])).code, 0);
  const second = await kubectl(['-n', 'small', 'create', 'configmap', 'b']);
  assert.match(
    second.stderr,
    'configmaps "b" is forbidden: exceeded quota: two, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2',
  );
  const dryRun = await kubectl(['-n', 'small', 'create', 'configmap', 'b', '--dry-run=server']);
  assert.match(dryRun.stderr, 'exceeded quota: two');

  assert.is((await kubectl(['-n', 'small', 'create', 'deployment', 'web', '--image=nginx', '--replicas=3'])).code, 0);
  const failure = await waitFor('the Deployment reports the refused pod', async () => {
    const d = JSON.parse((await kubectl(['-n', 'small', 'get', 'deploy', 'web', '-o', 'json'])).stdout);
    return d.status?.conditions?.find((c: { type: string }) => c.type === 'ReplicaFailure');
  });
  assert.is(failure.status, 'True');
  assert.is(failure.reason, 'FailedCreate');
  assert.match(
    failure.message,
    /^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: two, requested: pods=1, used: pods=2, limited: pods=2$/,
  );
  const rs = JSON.parse((await kubectl(['-n', 'small', 'get', 'rs', '-o', 'json'])).stdout).items[0];
  assert.is(rs.status.replicas, 2);
  assert.is(rs.status.conditions[0].message, failure.message);

  assert.is((await kubectl(['-n', 'small', 'patch', 'quota', 'two', '-p', '{"spec":{"hard":{"pods":"3"}}}'])).code, 0);
  await waitFor('the third pod is made and the failure cleared', async () => {
    const d = JSON.parse((await kubectl(['-n', 'small', 'get', 'deploy', 'web', '-o', 'json'])).stdout);
    return d.status?.replicas === 3 && !d.status.conditions.some((c: { type: string }) => c.type === 'ReplicaFailure');
  });
  const after = JSON.parse((await kubectl(['-n', 'small', 'get', 'rs', '-o', 'json'])).stdout).items[0];
  assert.is(after.status.conditions, undefined);
});

test('quota usage sums pods as PodRequests does: sidecars add, regular init containers raise, terminal pods only count', () => {
  const c = (cpu: string, memory?: string) => ({ resources: { requests: { cpu, ...(memory ? { memory } : {}) } } });
  const pods = [
    pod({
      containers: [c('100m', '1Gi')],
      initContainers: [{ ...c('50m'), restartPolicy: 'Always' }, c('500m', '512Mi')],
    }),
    // Limits only: the request defaults to the limit.
    pod({ containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }] }),
    pod({ containers: [c('4', '4Gi')] }, { phase: 'Succeeded' }),
  ];
  const used = quotaUsage(
    ['pods', 'count/pods', 'requests.cpu', 'requests.memory', 'limits.cpu'],
    [],
    pods,
    () => undefined,
    0,
  );
  // 100m + 50m sidecar = 150m, below 500m + 50m = 550m during init; plus the 1 of the second pod.
  assert.equal(used, {
    'count/pods': '3',
    'limits.cpu': '1',
    pods: '2',
    'requests.cpu': '1550m',
    'requests.memory': '2Gi',
  });
});

test('quota usage of a scoped quota counts only the pods its scopes take, and names it limits at zero', () => {
  const pods = [
    pod({ containers: [{}] }),
    pod({ containers: [{ resources: { requests: { cpu: '1' } } }], activeDeadlineSeconds: 30 }),
  ];
  assert.equal(
    quotaUsage(['pods', 'requests.cpu'], ['BestEffort'], pods, () => undefined, 0),
    {
      pods: '1',
      'requests.cpu': '0',
    },
  );
  assert.equal(
    quotaUsage(['pods', 'requests.cpu'], ['Terminating'], pods, () => undefined, 0),
    {
      pods: '1',
      'requests.cpu': '1',
    },
  );
});

test.run();
