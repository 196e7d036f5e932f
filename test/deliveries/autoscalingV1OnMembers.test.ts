// An autoscaling/v1 HorizontalPodAutoscaler in Git (targetCPUUtilizationPercentage) propagates to a member that
// serves it beside v2: created through v1, read back unchanged on the next pass (no drift from the conversion), it
// marks its Deployment retain-replicas and the member's HPA scales it. Real config repo, emulated member,
// reconcileOnce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {emulator.flotilla.io/cpu-usage: 80m}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]
`;
const HPA_V1 = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 3
  targetCPUUtilizationPercentage: 50
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
    # Karmada's detector sees the v1 HPA at autoscaling/v2, its group's preferred version: selected there.
    - {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, name: web}
  placement:
    clusterAffinity: {clusterNames: [member1]}
`;

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/web.yaml': POLICY,
      'templates/web.yaml': DEPLOYMENT,
      'templates/web-hpa.yaml': HPA_V1,
    },
    'web with an autoscaling/v1 HPA',
    { hpa: { syncPeriodMs: 200, downscaleStabilizationMs: 60_000, cpuInitializationPeriodMs: 0 } },
  );
});
test.after(async () => {
  await fleet?.cleanup();
});

const pass = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: () => {},
  });
const result = (r: ReconcileResult, kind: string) =>
  r.delivery!.clusters.get('member1')!.results.find((x) => x.ref.kind === kind && !x.prune)!;

test('an autoscaling/v1 HPA from Git is applied, reads back unchanged, and scales its retained Deployment', async () => {
  const first = await pass();
  assert.is(
    result(first, 'HorizontalPodAutoscaler').action,
    'created',
    result(first, 'HorizontalPodAutoscaler').message,
  );
  const stored = fleet.members[0]!.store.get('autoscaling/horizontalpodautoscalers', 'default', 'web')!;
  assert.equal((stored.spec as { metrics?: unknown }).metrics, [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
  ]);
  // 80% of request against 50%: 1 -> 2 on the member, and Flotilla keeps the member's count.
  const replicas = () =>
    (fleet.members[0]!.store.get('apps/deployments', 'default', 'web')?.spec as { replicas?: number } | undefined)
      ?.replicas;
  await waitFor('the member HPA scaled web', () => (replicas() ?? 0) >= 2, 20_000);
  const again = await pass();
  assert.is(
    result(again, 'HorizontalPodAutoscaler').action,
    'unchanged',
    result(again, 'HorizontalPodAutoscaler').message,
  );
  assert.is(result(again, 'Deployment').action, 'unchanged', result(again, 'Deployment').message);
  assert.ok((replicas() ?? 0) >= 2);
});

test.run();
