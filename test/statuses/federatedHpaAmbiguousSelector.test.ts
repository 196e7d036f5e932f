// Two FederatedHPAs whose workloads' selectors both select the same pods: Karmada's validateAndParseSelector sets
// ScalingActive False AmbiguousSelector on each and neither scales. One emulated member runs the Deployment; the
// status side's decisions are read directly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { startHpaMember, type HpaMember } from './helpers/federatedHpaMember.ts';

let member: HpaMember;

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
  member = await startHpaMember([WEB, CANARY]);
  await member.waitForItems('the pods sampled', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', 2);
});
test.after(async () => {
  await member?.close();
});

async function decide(files: Record<string, string | null>) {
  const decided = await member.decide(member.commit(files, 'FederatedHPAs'), {
    now: new Date(),
    memory: newAutoscalerMemory(),
    options: { cpuInitializationPeriodMs: 0 },
  });
  return (name: string) => decided(name)!;
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
