// Drift repair: an object Flotilla owns (labelled karmada.io/managed=true and in its inventory) changed on the
// member by another field manager (kubectl scale, a kubectl edit-style patch) is put back by the next pass, with a
// forced apply; an object that is not ours keeps conflictResolution Abort: left untouched and reported. Real
// kubectl 1.32 against an emulated member on loopback, a real config repo, reconcileOnce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, type ReconcileResult } from '../../src/reconcile.ts';
import { clusterYaml, deploymentPolicy } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;

const deployment = (name: string, replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: ${name}
          image: ${image}
`;

let logged: Record<string, unknown>[] = [];
const pass = () => {
  logged = [];
  return reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: fleet.kubes,
    render: true,
    log: (entry) => logged.push(entry as Record<string, unknown>),
  });
};
const result = (r: ReconcileResult, name: string) =>
  r.delivery!.clusters.get('member1')!.results.find((x) => x.ref.name === name && !x.prune)!;
const k = (...args: string[]) => fleet.kubectl(['--context', 'member1', ...args]);
const create = (manifest: unknown) =>
  fleet.kubectl(['--context', 'member1', 'create', '-f', '-'], JSON.stringify(manifest));
const field = async (name: string, path: string) => {
  const out = await k(
    'get',
    'deployment',
    name,
    '-n',
    'default',
    '-o',
    `jsonpath=${path.startsWith('{') ? path : `{${path}}`}`,
  );
  assert.is(out.code, 0, out.stderr);
  return out.stdout;
};

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1'],
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/deployments.yaml': deploymentPolicy(['member1']),
      'templates/nginx.yaml': deployment('nginx', 2),
      'templates/legacy.yaml': deployment('legacy', 1),
      // Fields at a zero the API server never writes back (omitempty in their Go types), as charts often spell them.
      'templates/zeroed.yaml': deployment('zeroed', 1)
        .replace('spec:\n  replicas: 1\n', 'spec:\n  replicas: 1\n  minReadySeconds: 0\n')
        .replace('      labels: {app: zeroed}\n', '      labels: {app: zeroed}\n      annotations: {}\n')
        .replace('    spec:\n      containers:\n', '    spec:\n      hostNetwork: false\n      containers:\n')
        .replace(
          '          image: nginx:1.27\n',
          '          image: nginx:1.27\n          args: []\n          workingDir: ""\n',
        ),
      // Quantities the API server writes back in canonical form (2, 4Gi, 500m) and a null it writes back as {}.
      'templates/sized.yaml': deployment('sized', 1).replace(
        '          image: nginx:1.27\n',
        '          image: nginx:1.27\n          resources:\n            limits: {cpu: 2000m, memory: 4096Mi}\n            requests: {cpu: 0.5}\n        - name: sidecar\n          image: busybox\n          resources: null\n',
      ),
    },
    'nginx, legacy, zeroed and sized',
  );
  // A Deployment someone made by hand before Flotilla, with Flotilla's name for it in Git: not ours.
  const made = await create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'legacy', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'legacy' } },
      template: {
        metadata: { labels: { app: 'legacy' } },
        spec: { containers: [{ name: 'legacy', image: 'legacy:1' }] },
      },
    },
  });
  assert.is(made.code, 0, made.stderr);
  const first = await pass();
  assert.is(result(first, 'nginx').action, 'created');
  assert.is(result(first, 'legacy').action, 'conflict');
});

test.after(async () => {
  await fleet?.cleanup();
});

test('kubectl scale on a member is drift: the next resync puts the rendered replicas back', async () => {
  const scaled = await k('scale', 'deployment/nginx', '-n', 'default', '--replicas=5');
  assert.is(scaled.code, 0, scaled.stderr);
  assert.is(await field('nginx', '.spec.replicas'), '5');
  const r = await pass();
  assert.is(result(r, 'nginx').action, 'drift-repaired', result(r, 'nginx').message);
  assert.match(result(r, 'nginx').message, 'drift repaired');
  assert.is(r.writes, 1);
  // The apply log line and the status commit name the repair, not an ordinary configure.
  const apply = logged.find((e) => e.step === 'apply' && e.cluster === 'member1');
  assert.is(apply?.['drift-repaired'], 1, JSON.stringify(apply));
  assert.is(apply?.configured, undefined);
  const status = fleet.config.git('log', '-1', '--format=%B', 'flotilla/status');
  assert.match(status, /member1: .*1 drift-repaired/);
  assert.not.match(status, 'configured');
  assert.is(await field('nginx', '.spec.replicas'), '2');
  const managers = JSON.parse(
    (await k('get', 'deployment', 'nginx', '-n', 'default', '-o', 'json', '--show-managed-fields')).stdout,
  ) as { metadata: { managedFields: { manager: string; fieldsV1: Record<string, unknown> }[] } };
  const kubectlFields = managers.metadata.managedFields
    .filter((m) => m.manager !== 'flotilla')
    .map((m) => JSON.stringify(m.fieldsV1));
  assert.not.ok(
    kubectlFields.some((f) => f.includes('"f:replicas"')),
    "the field is Flotilla's again",
  );
});

test('a kubectl edit-style patch of the image is repaired too; a field Flotilla does not set is left alone', async () => {
  const patched = await k(
    'patch',
    'deployment',
    'nginx',
    '-n',
    'default',
    '--type',
    'strategic',
    '-p',
    JSON.stringify({
      metadata: { labels: { team: 'web' } },
      spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:hand-edited' }] } } },
    }),
  );
  assert.is(patched.code, 0, patched.stderr);
  assert.is(await field('nginx', '.spec.template.spec.containers[0].image'), 'nginx:hand-edited');
  const r = await pass();
  assert.is(result(r, 'nginx').action, 'drift-repaired');
  assert.is(await field('nginx', '.spec.template.spec.containers[0].image'), 'nginx:1.27');
  assert.is(await field('nginx', '.metadata.labels.team'), 'web', 'not ours: untouched');
});

test('a resync with no drift writes nothing, on the member or in Git', async () => {
  // The repaired rollout settles first (its status is what the status branch reflects), then one pass records it.
  await waitFor(
    'the nginx rollout',
    async () =>
      (await field('nginx', '{.status.updatedReplicas}/{.status.readyReplicas}/{.status.replicas}')) === '2/2/2',
  );
  assert.is((await pass()).writes, 0);
  const head = fleet.config.git('rev-parse', 'flotilla/status');
  const r = await pass();
  assert.is(r.writes, 0);
  assert.is(result(r, 'nginx').action, 'unchanged');
  assert.is(result(r, 'sized').action, 'unchanged', 'canonical quantities and an emptied struct are no drift');
  assert.is(result(r, 'zeroed').action, 'unchanged', 'omitempty fields at their zero are no drift');
  assert.is(await field('sized', '{.spec.template.spec.containers[0].resources.limits.cpu}'), '2');
  if (r.statusCommit)
    console.error(fleet.config.git('show', '--stat', r.statusCommit), fleet.config.git('diff', head, r.statusCommit));
  assert.is(r.statusCommit, null);
  assert.is(fleet.config.git('rev-parse', 'flotilla/status'), head);
});

test('an object that is not ours keeps Abort: scaled by hand, it is left as it is and reported', async () => {
  const scaled = await k('scale', 'deployment/legacy', '-n', 'default', '--replicas=4');
  assert.is(scaled.code, 0, scaled.stderr);
  const r = await pass();
  assert.is(result(r, 'legacy').action, 'conflict');
  assert.match(result(r, 'legacy').message, 'Karmada will not manage this resource');
  // The log names it, with the member's answer, not only a count.
  const applied = logged.find((e) => e.step === 'apply' && e.cluster === 'member1');
  assert.ok(
    (applied?.problems as string[] | undefined)?.some((p) => p.includes('legacy') && p.includes('conflict')),
    JSON.stringify(applied),
  );
  assert.is(await field('legacy', '.spec.replicas'), '4');
  assert.is(await field('legacy', '.spec.template.spec.containers[0].image'), 'legacy:1');
});

test('a labelled object Flotilla never applied (not in its inventory) is not forced: the field conflict is reported', async () => {
  const made = await create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'other', namespace: 'default', labels: { 'karmada.io/managed': 'true' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'other' } },
      template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'other', image: 'other:1' }] } },
    },
  });
  assert.is(made.code, 0, made.stderr);
  fleet.config.commit({ 'templates/other.yaml': deployment('other', 1) }, 'other');
  const r = await pass();
  assert.is(result(r, 'other').action, 'conflict');
  assert.match(result(r, 'other').message, 'field conflict');
  assert.is(await field('other', '.spec.replicas'), '3');
});

test('a container added on the member to an object Flotilla owns is removed, as Karmada replaces what it updates', async () => {
  const patched = await k(
    'patch',
    'deployment',
    'nginx',
    '-n',
    'default',
    '--type',
    'strategic',
    '-p',
    JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } }),
  );
  assert.is(patched.code, 0, patched.stderr);
  assert.is(await field('nginx', '{.spec.template.spec.containers[*].name}'), 'sidecar nginx');
  const r = await pass();
  assert.is(result(r, 'nginx').action, 'drift-repaired', result(r, 'nginx').message);
  assert.is(await field('nginx', '{.spec.template.spec.containers[*].name}'), 'nginx');
  assert.is(await field('nginx', '.metadata.labels.team'), 'web', "a label Git never set is the member's to keep");
  const again = await pass();
  assert.is(result(again, 'nginx').action, 'unchanged', 'no write: the object matches Git at last');
});

test('taken over under Overwrite, a hand-made Deployment becomes what Git says: its extra container goes', async () => {
  const made = await create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'adopted', namespace: 'default', labels: { owner: 'hand' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'adopted' } },
      template: {
        metadata: { labels: { app: 'adopted' } },
        spec: {
          containers: [
            { name: 'adopted', image: 'adopted:1' },
            { name: 'logger', image: 'logger:1' },
          ],
        },
      },
    },
  });
  assert.is(made.code, 0, made.stderr);
  fleet.config.commit(
    {
      'templates/adopted.yaml': deployment('adopted', 1).replace(
        '  namespace: default\n',
        '  namespace: default\n  annotations: {work.karmada.io/conflict-resolution: overwrite}\n',
      ),
    },
    'adopt the hand-made Deployment',
  );
  const r = await pass();
  assert.is(result(r, 'adopted').action, 'configured', result(r, 'adopted').message);
  assert.is(await field('adopted', '{.spec.template.spec.containers[*].image}'), 'nginx:1.27');
  assert.is(await field('adopted', '.metadata.labels.owner'), 'hand');
  assert.is(await field('adopted', ".metadata.labels['karmada\\.io/managed']"), 'true');
  const again = await pass();
  assert.is(result(again, 'adopted').action, 'unchanged', 'no write: the object matches Git at last');
});

test.run();
