// deploy/kubernetes as a cluster sees it: rendered by kubectl's own kustomize, accepted by `kubectl apply
// --dry-run=server` (client-side and server-side apply) against an emulated cluster, nothing stored; and the
// Deployment's `flotilla run` arguments read by the CLI's own parser.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { RUN_OPTIONS } from '../../src/commands/runOptions.ts';
import type { Member } from '../../src/members/startMember.ts';
import { MemberHarness } from '../members/helpers/memberHarness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KUSTOMIZATION = path.join(ROOT, 'deploy', 'kubernetes');
const NAMESPACE = 'flotilla-system';

const harness = new MemberHarness();
let host: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;
let objects: any[];

test.before(async () => {
  host = await harness.start({ name: 'management' });
  kubectl = harness.kubectl([host]);
  const built = await kubectl(['kustomize', KUSTOMIZATION]);
  assert.is(built.code, 0, built.stderr);
  objects = parseAllDocuments(built.stdout).map((d) => d.toJS());
});

test.after(async () => {
  await harness.cleanup();
});

/** kubectl's name of an object in its output: `deployment.apps/flotilla`, `namespace/flotilla-system`. */
function shownName(object: any): string {
  const group = String(object.apiVersion).includes('/') ? `.${String(object.apiVersion).split('/')[0]}` : '';
  return `${String(object.kind).toLowerCase()}${group}/${object.metadata.name}`;
}

/** Everything the namespace holds, by kubectl's names. */
async function stored(): Promise<string[]> {
  const listed = await kubectl([
    'get',
    'deployments,replicasets,pods,services,serviceaccounts,roles,rolebindings,poddisruptionbudgets,leases',
    '-n',
    NAMESPACE,
    '-o',
    'name',
  ]);
  assert.is(listed.code, 0, listed.stderr);
  return listed.stdout.split('\n').filter(Boolean).sort();
}

test('the kustomization renders the namespace, its RBAC, Service, PodDisruptionBudget and Deployment', () => {
  assert.equal(objects.map(shownName).sort(), [
    'deployment.apps/flotilla',
    'namespace/flotilla-system',
    'poddisruptionbudget.policy/flotilla',
    'role.rbac.authorization.k8s.io/flotilla-leases',
    'rolebinding.rbac.authorization.k8s.io/flotilla-leases',
    'service/flotilla',
    'serviceaccount/flotilla',
  ]);
  for (const o of objects.filter((o) => o.kind !== 'Namespace')) assert.is(o.metadata.namespace, NAMESPACE);
  // A placeholder registry: an unedited kustomization fails to pull instead of pulling some other `flotilla`.
  const deployment = objects.find((o) => o.kind === 'Deployment');
  assert.is(deployment.spec.template.spec.containers[0].image, 'registry.example.com/flotilla:0.1.0');
  const role = objects.find((o) => o.kind === 'Role');
  // Exactly the requests src/leases/LeaseClient.ts makes: GET one and a list, POST, PUT, and DELETE of a dead
  // replica's Lease; no watch, nothing outside Leases.
  assert.equal(role.rules, [
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'create', 'update', 'delete'] },
  ]);
});

test('kubectl apply --dry-run=server accepts every manifest and the cluster stores none of them', async () => {
  // A real API server refuses even a dry-run create in a namespace that does not exist (NamespaceLifecycle), so
  // the Namespace's own dry run is checked alone first, then it is created for the rest.
  const namespaceOnly = await kubectl(['apply', '--dry-run=server', '-f', path.join(KUSTOMIZATION, 'namespace.yaml')]);
  assert.is(namespaceOnly.code, 0, namespaceOnly.stderr);
  assert.is(namespaceOnly.stdout.trim(), `namespace/${NAMESPACE} created (server dry run)`);
  assert.is((await kubectl(['get', 'namespace', NAMESPACE])).code, 1, 'the dry run created no namespace');

  const created = await kubectl(['apply', '-f', path.join(KUSTOMIZATION, 'namespace.yaml')]);
  assert.is(created.code, 0, created.stderr);
  const before = await stored();
  assert.equal(before, ['serviceaccount/default']);

  for (const mode of [[], ['--server-side']]) {
    const dry = await kubectl(['apply', '-k', KUSTOMIZATION, '--dry-run=server', ...mode]);
    assert.is(dry.code, 0, `${mode.join(' ') || 'client-side apply'}: ${dry.stderr}`);
    for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
      const verb = mode.length ? 'serverside-applied' : 'created';
      assert.ok(
        dry.stdout.includes(`${shownName(object)} ${verb} (server dry run)`),
        `${shownName(object)} accepted:\n${dry.stdout}`,
      );
    }
    assert.equal(await stored(), before, 'nothing was stored');
  }
});

test('the same dry run refuses a Deployment with a mistake in it, naming the field, and stores nothing', async () => {
  const deployment = structuredClone(objects.find((o) => o.kind === 'Deployment'));
  deployment.spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable = 'DoNotSchedul';
  deployment.spec.template.spec.containers[0].volumeMounts[0].name = 'dat';
  const dry = await kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(deployment));
  assert.is(dry.code, 1);
  assert.match(
    dry.stderr,
    'spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "DoNotSchedul"',
  );
  assert.match(dry.stderr, 'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "dat"');
  assert.not.ok((await stored()).includes('deployment.apps/flotilla'));
});

test("the Deployment passes `flotilla run` only flags its parser accepts, with values from the pod's env and volumes", () => {
  const deployment = objects.find((o) => o.kind === 'Deployment');
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  const env = new Map<string, unknown>(container.env.map((e: { name: string }) => [e.name, e]));
  // The kubelet's $(VAR) expansion, from the container's env: every variable named must be defined there.
  const args = (container.args as string[]).map((arg) =>
    arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (_, name: string) => {
      assert.ok(env.has(name), `$(${name}) is defined in the container's env`);
      return `value-of-${name}`;
    }),
  );
  const { values } = parseArgs({ args, options: RUN_OPTIONS, strict: true });
  assert.is(values['leader-elect'], true);
  assert.is(values.id, 'value-of-POD_NAME', 'each replica is named after its pod');
  assert.is(values['leader-elect-resource-namespace'], 'value-of-POD_NAMESPACE');

  assert.is(values.repo, undefined, "the repo URL, token included, is not in the process's arguments");
  assert.ok(env.has(values['repo-env']!), '--repo-env names a variable of the container');
  assert.ok(env.has(values['webhook-secret-env']!), '--webhook-secret-env names a variable of the container');
  assert.is(values.listen, '0.0.0.0:9464', 'probes and the Service reach the listener from outside the pod');
  assert.is(container.ports[0].containerPort, 9464);
  const mounts = new Map<string, { name: string; readOnly?: boolean }>(
    container.volumeMounts.map((m: { mountPath: string }) => [m.mountPath, m]),
  );
  const volumes = new Map<string, Record<string, unknown>>(pod.volumes.map((v: { name: string }) => [v.name, v]));
  const volumeAt = (file: string) => {
    const at = [...mounts.keys()].find((m) => file === m || file.startsWith(`${m}/`));
    assert.ok(at, `${file} lies on a mounted volume`);
    return { mount: mounts.get(at!)!, volume: volumes.get(mounts.get(at!)!.name)! };
  };
  const credentials = volumeAt(values['credentials-dir']!);
  assert.ok(credentials.volume.secret, '--credentials-dir is the kubeconfigs Secret');
  assert.is(credentials.mount.readOnly, true);
  const mirror = volumeAt(values['mirror-dir']!);
  assert.ok(mirror.volume.emptyDir, '--mirror-dir is writable scratch space');
  assert.not.ok(mirror.mount.readOnly);
  // With a read-only root filesystem, HOME and TMPDIR (set by the image) must be writable too.
  assert.ok(volumeAt('/var/lib/flotilla').volume.emptyDir);
  assert.ok(volumeAt('/tmp').volume.emptyDir);
  assert.is(container.securityContext.readOnlyRootFilesystem, true);
  assert.equal(container.securityContext.capabilities.drop, ['ALL']);
  assert.is(pod.securityContext.runAsNonRoot, true);
  assert.is(pod.securityContext.seccompProfile.type, 'RuntimeDefault');
  assert.is(container.livenessProbe.httpGet.path, '/healthz');
  assert.is(container.readinessProbe.httpGet.path, '/readyz');
});

test.run();
