import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { quotaUsage } from '../../src/members/controllers/resourceQuotaController.ts';
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
