// Karmada's deployment replicas syncer end-to-end cases (test/e2e/suites/base/deploymentreplicassyncer_test.go), the
// Git way: a Deployment and its HPA propagate to two members, the members' HPAs own the replicas (retain-replicas),
// and for a Divided placement the members' summed replicas become the template's replicas. Karmada writes that sum
// into the template's spec.replicas; Flotilla never writes to main, so it is a status commit (syncedreplicas/) the
// next render reads: the template's replicas here are the rendered binding's spec.replicas, which is what Karmada's
// binding carries. A later edit of spec.replicas in Git is the user's later write, as in Karmada. Running
// reconciler in-process, emulated members with their HPA controller, pushes to the bare repo.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { explainCommand } from '../../src/commands/explainCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { clusterRegistration, makeFleet, type Fleet } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { untilTrue, type ChangeSource } from '../helpers/untilTrue.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';

let fleet: Fleet;
const events = new LogEvents();
let reconciler: Reconciler | undefined;
const CLUSTERS = ['member1', 'member2'] as const;

const deployment = (name: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations: {emulator.flotilla.io/cpu-usage: 1m}
    spec:
      containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 10m}, limits: {cpu: 100m}}}]
`;
// Karmada's helper.NewHPA: CPU at 80%, max 6; each case sets minReplicas. The pods idle, so the HPA holds at min.
const hpa = (name: string, minReplicas: number) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: ${name}, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  minReplicas: ${minReplicas}
  maxReplicas: 6
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
`;
/** Both objects to both members: Duplicated, or Divided by static weights 1:1. */
const policy = (name: string, divided: boolean) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: ${name}}
    - {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, name: ${name}}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
${
  divided
    ? `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`
    : ''
}`;

test.before(async () => {
  fleet = await makeFleet({
    members: [...CLUSTERS],
    memberOptions: { hpa: { syncPeriodMs: 200, downscaleStabilizationMs: 1_000, cpuInitializationPeriodMs: 0 } },
  });
  reconciler = await startReconciler({
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
    resyncMs: 0,
    statusUpdateFrequencyMs: 300,
    catchUp: { intervalMs: 200, forMs: 20_000 },
    log: events.log,
  });
  fleet.push(Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterRegistration(c)])), 'two members');
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const git = (...args: string[]) => fleet.git(fleet.bare, ...args);
// The waits below run beside the reconciler and the members, in this process: they read Git without blocking
// (fleet.gitAsync) and check again only when something moved. The branches move only in a pass, each logged; a
// member's Deployment also moves when its HPA scales it, a write to its store.
const passes: ChangeSource = (listener) => events.subscribe(listener);
const memberWrites: ChangeSource = (listener) => {
  const stops = fleet.members.map((m) => m.store.subscribe(listener));
  return () => {
    for (const stop of stops) stop();
  };
};
const showFile = async (rev: string, file: string): Promise<string | undefined> =>
  fleet.gitAsync(fleet.bare, 'show', `${rev}:${file}`).catch(() => undefined); // not written yet
const memberReplicas = (cluster: number, name: string) =>
  (fleet.members[cluster]!.store.get('apps/deployments', 'default', name)?.spec as { replicas?: number } | undefined)
    ?.replicas ?? 0;
/** Karmada's assertDeploymentWorkloadReplicas: each member's spec.replicas (0: the member has no such Deployment). */
const workloadReplicas = (name: string, expected: [number, number]) =>
  untilTrue(`${name} at ${expected.join(':')} on the members`, () => {
    const now = [memberReplicas(0, name), memberReplicas(1, name)];
    return now[0] === expected[0] && now[1] === expected[1];
  }, [memberWrites]);
/** The template's replicas as the last render gave them: the rendered binding's spec.replicas. */
const renderedTemplateReplicas = async (name: string) => {
  const text = await showFile('flotilla/rendered', `bindings/default/${name}-deployment.yaml`);
  return text === undefined ? undefined : (parse(text).spec.replicas as number);
};
/** Karmada's assertDeploymentTemplateReplicas, with the members' status caught up (observedGeneration). */
const templateReplicas = (name: string, expected: number) =>
  untilTrue(
    `${name}'s template replicas ${expected}`,
    async () => (await renderedTemplateReplicas(name)) === expected,
    [passes],
  );
const synced = async (name: string) => {
  const text = await showFile('flotilla/status', `syncedreplicas/default/${name}.yaml`);
  return text === undefined ? undefined : parse(text);
};
const setUp = (name: string, replicas: number, minReplicas: number, divided: boolean) =>
  fleet.push(
    {
      [`templates/${name}.yaml`]: deployment(name, replicas),
      [`templates/${name}-hpa.yaml`]: hpa(name, minReplicas),
      [`policies/${name}.yaml`]: policy(name, divided),
    },
    `${name}: ${replicas} replicas, an HPA with minReplicas ${minReplicas}`,
  );

test('Duplicated: the members HPAs scale each copy, the template keeps what Git says and manual edits move nothing on the members', async () => {
  setUp('dup', 2, 2, false);
  await workloadReplicas('dup', [2, 2]);
  await templateReplicas('dup', 2);

  fleet.push({ 'templates/dup-hpa.yaml': hpa('dup', 3) }, 'dup: HPA minReplicas 3');
  await workloadReplicas('dup', [3, 3]);
  await templateReplicas('dup', 2);

  fleet.push({ 'templates/dup.yaml': deployment('dup', 4) }, 'dup: 4 replicas');
  await templateReplicas('dup', 4);
  await workloadReplicas('dup', [3, 3]);

  fleet.push({ 'templates/dup.yaml': deployment('dup', 1) }, 'dup: 1 replica');
  await templateReplicas('dup', 1);
  await workloadReplicas('dup', [3, 3]);
  assert.is(await synced('dup'), undefined, 'the replicas syncer leaves a Duplicated placement alone');
});

test("Divided: the HPAs' scaling becomes the template's replicas; manual edits in Git are synced back to the members' sum", async () => {
  setUp('div', 4, 2, true);
  await workloadReplicas('div', [2, 2]);
  await templateReplicas('div', 4);

  fleet.push({ 'templates/div-hpa.yaml': hpa('div', 3) }, 'div: HPA minReplicas 3');
  await workloadReplicas('div', [3, 3]);
  await templateReplicas('div', 6);
  const record = await synced('div');
  assert.equal(
    { replicas: record.replicas, gitReplicas: record.gitReplicas, clusters: record.clusters },
    { replicas: 6, gitReplicas: 4, clusters: { member1: 3, member2: 3 } },
  );
  const validate = new Ajv({ validateFormats: false }).compile(
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../docs/schemas/status-syncedreplicas.schema.json'), 'utf8'),
    ),
  );
  assert.ok(validate(record), JSON.stringify(validate.errors));
  // The two members' HPAs scale one after the other: a status pass between them records the sum then (4 -> 5), as
  // Karmada's syncer would, before the final 6.
  assert.match(
    git('log', '-1', '--format=%B', 'flotilla/status', '--', 'syncedreplicas/default/div.yaml'),
    /Replicas synced for Deployment default\/div: [45] -> 6 replicas, as the members run them \(3 in member1, 3 in member2; 4 in Git\)/,
  );

  const explained = commonOptions(fleet.bare);
  assert.is(await explainCommand({ ...explained, words: ['deployment', 'div'], namespace: 'default' }), 0);
  assert.match(
    explained.stdout(),
    "replicas: governed by the members' HPAs (replicas synced from the members): 6 replica(s), 4 in Git (status branch), divided below",
  );

  fleet.push({ 'templates/div.yaml': deployment('div', 10) }, 'div: 10 replicas');
  await untilTrue('the synced count recorded against Git 10', async () => (await synced('div'))?.gitReplicas === 10, [
    passes,
  ]);
  await templateReplicas('div', 6);
  await workloadReplicas('div', [3, 3]);

  fleet.push({ 'templates/div.yaml': deployment('div', 2) }, 'div: 2 replicas');
  await untilTrue('the synced count recorded against Git 2', async () => (await synced('div'))?.gitReplicas === 2, [
    passes,
  ]);
  await templateReplicas('div', 6);
  await workloadReplicas('div', [3, 3]);
  assert.match(git('show', 'main:templates/div.yaml'), /replicas: 2/, "nothing is written to the user's branch");

  // get shows the template as Karmada's would read: 6 replicas, all six running.
  await untilTrue('get shows 6/6', async () => {
    let out = '';
    const code = await getCommand(['deployments', '--repo', fleet.bare], {
      out: (s) => {
        out += s;
      },
      err: () => {},
      now: () => new Date(),
    });
    return code === 0 && /^div\s+6\/6\s/m.test(out);
  }, [passes]);
});

test('Divided, one cluster with no replica: raising the replicas by hand in Git from 1 to 2 takes effect', async () => {
  setUp('zero', 1, 1, true);
  await templateReplicas('zero', 1);
  fleet.push({ 'templates/zero.yaml': deployment('zero', 2) }, 'zero: 2 replicas');
  await workloadReplicas('zero', [1, 1]);
  await templateReplicas('zero', 2);
  assert.is(await synced('zero'), undefined, 'the members run what the template says: nothing to sync');
});

test("Divided, removing one cluster's replicas: lowering them by hand in Git from 2 to 1 takes effect", async () => {
  setUp('one', 2, 1, true);
  await workloadReplicas('one', [1, 1]);
  await templateReplicas('one', 2);
  fleet.push({ 'templates/one.yaml': deployment('one', 1) }, 'one: 1 replica');
  // Karmada waits for the binding's aggregated status to list one cluster.
  await untilTrue('the status lists one cluster', async () => {
    const text = await showFile('flotilla/status', 'templates/default/deployment.apps_one.yaml');
    return text !== undefined && parse(text).aggregatedStatus.length === 1;
  }, [passes]);
  await templateReplicas('one', 1);
  assert.is(memberReplicas(0, 'one') + memberReplicas(1, 'one'), 1);
});

test('Divided, 1 replica but HPA minReplicas 2: the template grows to 4 as each member the sum reaches scales to 2', async () => {
  // 1 replica to one member; its HPA scales it to 2; the template becomes 2 and is divided 1:1; the first member
  // keeps its 2 and the second's HPA scales its 1 to 2; the template becomes 4.
  setUp('grow', 1, 2, true);
  await workloadReplicas('grow', [2, 2]);
  await templateReplicas('grow', 4);
  assert.is((await synced('grow')).replicas, 4);
});

test.run();
