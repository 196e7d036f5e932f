// With several replicas, FederatedHPA decisions are the leader's alone and read every member: the reconcile pass
// takes whose metrics to use from `autoscaling` (null: this replica does not decide), not from its own shard.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { reconcileOnce, reconcileStatusOnce } from '../../src/reconcile.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { clusterRegistration, makeFleet, weightedPolicy, type Fleet } from '../helpers/fleet.ts';

let fleet: Fleet;
let kubes: Map<string, KubeTarget>;
test.before(async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
  kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'));
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await fleet?.cleanup();
});

const FILES = {
  'clusters/member1.yaml': clusterRegistration('member1'),
  'clusters/member2.yaml': clusterRegistration('member2'),
  'policies/web.yaml': weightedPolicy('web', ['member1', 'member2']).replace(
    'metadata:\n  name: web',
    'metadata:\n  name: web\n  namespace: default',
  ),
  'templates/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {emulator.flotilla.io/cpu-usage: 90m}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]
`,
  'templates/web-fhpa.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 8
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`,
};

test("a replica that does not lead decides nothing; the leader decides from every member, not only its shard's", async () => {
  fleet.push(FILES, 'web (2 replicas, one per member, each pod at 90% of its request) with a FederatedHPA');
  const repo = await openRepo(fleet.bare);
  const refs = {
    repo,
    outputRef: 'refs/heads/flotilla/rendered',
    statusRef: 'refs/heads/flotilla/status',
    log: () => undefined,
    autoscalerOptions: { syncPeriodMs: 0, downscaleStabilizationMs: 0, cpuInitializationPeriodMs: 0 },
  };
  const decision = () => {
    try {
      return parse(fleet.git(fleet.bare, 'show', 'flotilla/status:autoscalers/default/web.yaml')) as {
        desiredReplicas: number;
        currentReplicas?: number;
      };
    } catch {
      return undefined;
    }
  };
  // This replica's shard is member1 only; it applies there and, not leading, decides nothing.
  const member1 = new Map([['member1', kubes.get('member1')!]]);
  const member2 = new Map([['member2', kubes.get('member2')!]]);
  await reconcileOnce({
    ...refs,
    sourceRef: 'refs/heads/main',
    clusters: member1,
    render: true,
    autoscaling: async () => null,
  });
  await reconcileOnce({
    ...refs,
    sourceRef: 'refs/heads/main',
    clusters: member2,
    render: false,
    autoscaling: async () => null,
  });
  for (let i = 0; i < 5; i++) await reconcileStatusOnce({ ...refs, clusters: member1, autoscaling: async () => null });
  assert.is(decision(), undefined, 'no decision from a replica that does not lead');
  // The leader owns member1 only, but decides from both members: 2 pods at 90% against 50% → 4.
  const everyone = { clusters: kubes, ready: new Set(['member1', 'member2']) };
  const made = await waitFor(
    'the leader decision',
    async () => {
      await reconcileStatusOnce({ ...refs, clusters: member1, autoscaling: async () => everyone });
      return decision();
    },
    30_000,
    100,
  );
  assert.is(made.desiredReplicas, 4, JSON.stringify(made));
});

test.run();
