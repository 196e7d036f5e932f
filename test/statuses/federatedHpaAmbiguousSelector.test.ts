// Two FederatedHPAs whose workloads' selectors both select the same pods: Karmada's validateAndParseSelector sets
// ScalingActive False AmbiguousSelector on each and neither scales. One emulated member runs the Deployment; the
// status side's decisions are read directly.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoscalerPath, parseAutoscalerDecision } from '../../src/branches/status/autoscalerDecisions.ts';
import { bindingPath } from '../../src/branches/rendered/outputPaths.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { sendRequest } from '../../src/deliveries/sendRequest.ts';
import { decideFederatedHpas, newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { makeFleet, type Fleet } from '../helpers/fleet.ts';

let fleet: Fleet;
let kubes: Map<string, KubeTarget>;

// Busy pods: 90m of their 100m request, well above a 50% target.
const deployment = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: labels },
    template: {
      metadata: { labels, annotations: { 'emulator.flotilla.io/cpu-usage': '90m' } },
      spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    },
  },
});
const WEB = deployment('web', { app: 'web' });
// Its pods carry app=web too, so web's selector selects them.
const CANARY = deployment('web-canary', { app: 'web', track: 'canary' });
const fhpa = (name: string, target: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: ${name}, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${target}}
  minReplicas: 1
  maxReplicas: 10
`;

test.before(async () => {
  fleet = await makeFleet({ members: ['member1'] });
  kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 3_000 });
  for (const d of [WEB, CANARY]) {
    const created = await sendRequest(kubes.get('member1')!, {
      method: 'POST',
      path: '/apis/apps/v1/namespaces/default/deployments',
      body: JSON.stringify(d),
      contentType: 'application/json',
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
  }
  await waitFor(
    'the pods sampled',
    async () => {
      const res = await sendRequest(kubes.get('member1')!, {
        method: 'GET',
        path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods',
      });
      return ((res.body as { items?: unknown[] }).items ?? []).length === 2;
    },
    20_000,
    100,
  );
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((kube) => kube.close()));
  await fleet?.cleanup();
});

async function decide(files: Record<string, string | null>) {
  const binding = (name: string) =>
    bindingPath({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name });
  const rendered = fleet.work.commit(
    Object.fromEntries(['web', 'web-canary'].map((n) => [binding(n), 'spec: {clusters: [{name: member1}]}\n'])),
    'bindings',
  );
  const source = fleet.work.commit(
    {
      [binding('web')]: null,
      [binding('web-canary')]: null,
      'templates/web.yaml': JSON.stringify(WEB),
      'templates/web-canary.yaml': JSON.stringify(CANARY),
      ...files,
    },
    'FederatedHPAs',
  );
  const out = await decideFederatedHpas({
    repo: fleet.repo,
    sourceCommit: source,
    renderedCommit: rendered,
    existing: new Map(),
    clusters: kubes,
    ready: new Set(['member1']),
    now: new Date(),
    memory: newAutoscalerMemory(),
    options: { cpuInitializationPeriodMs: 0 },
  });
  return (name: string) => parseAutoscalerDecision(out.edits.get(autoscalerPath('default', name))!);
}

test("FederatedHPAs whose selectors select the same pods both refuse to scale them, as Karmada's AmbiguousSelector", async () => {
  const both = await decide({
    'templates/web-fhpa.yaml': fhpa('web', 'web'),
    'templates/canary-fhpa.yaml': fhpa('canary', 'web-canary'),
  });
  // web's app=web selects the canary's pods too; the canary's own selector does not select web's.
  const web = both('web');
  assert.is(web.desiredReplicas, 1);
  assert.equal(
    web.conditions?.find((c) => c.type === 'ScalingActive'),
    {
      type: 'ScalingActive',
      status: 'False',
      reason: 'AmbiguousSelector',
      message: 'pods by selector app=web are controlled by multiple HPAs: [default/canary default/web]',
    },
  );
  assert.is(both('canary').conditions?.find((c) => c.type === 'ScalingActive')?.reason, 'AmbiguousSelector');
  // Alone, web computes a count from the pods app=web selects.
  const alone = await decide({ 'templates/web-fhpa.yaml': fhpa('web', 'web'), 'templates/canary-fhpa.yaml': null });
  assert.is(alone('web').conditions?.find((c) => c.type === 'ScalingActive')?.reason, 'ValidMetricFound');
});

test.run();
