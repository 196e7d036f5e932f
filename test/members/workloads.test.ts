import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// KWOK-style simulation: scheduling against node capacity, workload controllers' status, garbage
// collection and namespace deletion.

const harness = new MemberHarness();
let member: Member;

const podTemplate = (app: string, cpu = '100m') => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36', resources: { requests: { cpu, memory: '64Mi' } } }] },
});

const apply = (path: string, body: object) =>
  api(member, 'PATCH', `${path}?fieldManager=test&force=true`, { contentType: 'application/apply-patch+yaml', body });
const get = async (path: string) => (await api(member, 'GET', path)).body;

test.before(async () => {
  member = await harness.start({
    name: 'sim',
    readyDelayMs: 30,
    nodes: [
      { name: 'small-1', cpu: '1', memory: '2Gi', pods: '10' },
      { name: 'small-2', cpu: '1', memory: '2Gi', pods: '10' },
      {
        name: 'tainted',
        cpu: '8',
        memory: '8Gi',
        pods: '10',
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      },
    ],
  });
});

test.after(async () => {
  await harness.cleanup();
});

test("a running pod's conditions carry a null lastProbeTime and no empty reason or message", async () => {
  await apply('/api/v1/namespaces/default/pods/solo', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'solo' },
    spec: podTemplate('solo').spec,
  });
  const pod = await waitFor('running', async () => {
    const p = await get('/api/v1/namespaces/default/pods/solo');
    return p.status?.phase === 'Running' ? p : undefined;
  });
  const types = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  for (const type of types) {
    const c = pod.status.conditions.find((x: any) => x.type === type);
    assert.equal(Object.keys(c).sort(), ['lastProbeTime', 'lastTransitionTime', 'status', 'type'], type);
    assert.is(c.lastProbeTime, null, type);
  }
  await api(member, 'DELETE', '/api/v1/namespaces/default/pods/solo');
});

test("pods that fit nowhere stay Pending with the scheduler's Unschedulable reason", async () => {
  const res = await apply('/apis/apps/v1/namespaces/default/deployments/big', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'big' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'big' } }, template: podTemplate('big', '700m') },
  });
  assert.is(res.status, 201);
  const pending = await waitFor('one unschedulable pod', async () => {
    const pods = (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dbig')).items;
    const unscheduled = pods.filter((p: any) =>
      p.status?.conditions?.some((c: any) => c.type === 'PodScheduled' && c.reason === 'Unschedulable'),
    );
    const running = pods.filter((p: any) => p.status?.phase === 'Running');
    return pods.length === 3 && unscheduled.length === 1 && running.length === 2 ? unscheduled[0] : undefined;
  });
  assert.is(pending.status.phase, 'Pending');
  const scheduled = pending.status.conditions.find((c: any) => c.type === 'PodScheduled');
  assert.is(scheduled.lastProbeTime, null, 'the scheduler never probes');
  const message: string = scheduled.message;
  assert.match(
    message,
    /^0\/3 nodes are available: 1 node\(s\) had untolerated taint \{dedicated: gpu\}, 2 Insufficient cpu\./,
  );
  // Evicting pods cannot get past a taint; it could free cpu, were there lower-priority pods to evict.
  assert.match(
    message,
    / preemption: 0\/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod\.$/,
  );
  const deploy = await get('/apis/apps/v1/namespaces/default/deployments/big');
  assert.is(deploy.status.readyReplicas, 2);
  assert.is(deploy.status.conditions.find((c: any) => c.type === 'Available').status, 'False');
  // Scaling down to what fits lets the Deployment become Available.
  await api(member, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/big/scale', {
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 2 } },
  });
  await waitFor(
    'available',
    async () =>
      (await get('/apis/apps/v1/namespaces/default/deployments/big')).status?.conditions?.find(
        (c: any) => c.type === 'Available',
      )?.status === 'True',
  );
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/big');
  await waitFor(
    'big pods gone',
    async () => (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dbig')).items.length === 0,
  );
});

test('a pod no node selects is one preemption cannot help', async () => {
  await apply('/api/v1/namespaces/default/pods/nowhere', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'nowhere' },
    spec: { ...podTemplate('nowhere').spec, nodeSelector: { disk: 'none' } },
  });
  const message = await waitFor('unschedulable', async () => {
    const p = await get('/api/v1/namespaces/default/pods/nowhere');
    return p.status?.conditions?.find((c: any) => c.type === 'PodScheduled' && c.reason === 'Unschedulable')?.message;
  });
  assert.is(
    message,
    "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  );
  await api(member, 'DELETE', '/api/v1/namespaces/default/pods/nowhere');
});

test('StatefulSet pods are ordinal, created in order, and counted ready', async () => {
  await apply('/apis/apps/v1/namespaces/default/statefulsets/db', {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: podTemplate('db') },
  });
  const sts = await waitFor('3 ready', async () => {
    const s = await get('/apis/apps/v1/namespaces/default/statefulsets/db');
    return s.status?.readyReplicas === 3 ? s : undefined;
  });
  assert.is(sts.status.currentRevision, sts.status.updateRevision);
  const names = (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Ddb')).items.map(
    (p: any) => p.metadata.name,
  );
  assert.equal(names, ['db-0', 'db-1', 'db-2']);
});

test('DaemonSet runs one pod per node it tolerates', async () => {
  await apply('/apis/apps/v1/namespaces/default/daemonsets/agent', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { ...podTemplate('agent', '10m') } },
  });
  const ds = await waitFor('2 ready', async () => {
    const d = await get('/apis/apps/v1/namespaces/default/daemonsets/agent');
    return d.status?.numberReady === 2 ? d : undefined;
  });
  assert.is(ds.status.desiredNumberScheduled, 2, 'the tainted node is not tolerated');
  const nodes = (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dagent')).items
    .map((p: any) => p.spec.nodeName)
    .sort();
  assert.equal(nodes, ['small-1', 'small-2']);
});

test('workload statuses leave out the zero counters their Go types tag omitempty', async () => {
  const spec = (app: string) => ({ selector: { matchLabels: { app } }, template: podTemplate(app) });
  await apply('/apis/apps/v1/namespaces/default/deployments/none', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'none' },
    spec: { replicas: 0, ...spec('none') },
  });
  await apply('/apis/apps/v1/namespaces/default/statefulsets/nosts', {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'nosts' },
    spec: { replicas: 0, serviceName: 'nosts', ...spec('nosts') },
  });
  await apply('/apis/apps/v1/namespaces/default/daemonsets/nods', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'nods' },
    spec: {
      selector: { matchLabels: { app: 'nods' } },
      template: { ...podTemplate('nods'), spec: { ...podTemplate('nods').spec, nodeSelector: { absent: 'x' } } },
    },
  });
  const observed = (path: string) =>
    waitFor(path, async () => {
      const o = await get(path);
      return o.status?.observedGeneration === 1 ? o.status : undefined;
    });
  const deploy = await observed('/apis/apps/v1/namespaces/default/deployments/none');
  for (const field of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'])
    assert.not.ok(field in deploy, `Deployment status.${field}`);
  const rs = (await get('/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dnone')).items[0].status;
  assert.is(rs.replicas, 0);
  for (const field of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'])
    assert.not.ok(field in rs, `ReplicaSet status.${field}`);
  const sts = await observed('/apis/apps/v1/namespaces/default/statefulsets/nosts');
  assert.is(sts.replicas, 0);
  assert.is(sts.availableReplicas, 0);
  for (const field of ['readyReplicas', 'currentReplicas', 'updatedReplicas'])
    assert.not.ok(field in sts, `StatefulSet status.${field}`);
  const ds = await observed('/apis/apps/v1/namespaces/default/daemonsets/nods');
  assert.equal(
    [ds.currentNumberScheduled, ds.numberMisscheduled, ds.desiredNumberScheduled, ds.numberReady],
    [0, 0, 0, 0],
  );
  for (const field of ['numberAvailable', 'numberUnavailable', 'updatedNumberScheduled'])
    assert.not.ok(field in ds, `DaemonSet status.${field}`);
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/none');
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/statefulsets/nosts');
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/daemonsets/nods');
});

test('Job runs its pods to completion and reports Complete', async () => {
  await apply('/apis/batch/v1/namespaces/default/jobs/once', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'once' },
    spec: {
      completions: 2,
      parallelism: 1,
      template: { ...podTemplate('once', '10m'), spec: { ...podTemplate('once', '10m').spec, restartPolicy: 'Never' } },
    },
  });
  const job = await waitFor('complete', async () => {
    const j = await get('/apis/batch/v1/namespaces/default/jobs/once');
    return j.status?.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
  });
  assert.is(job.status.succeeded, 2);
  assert.ok(job.status.completionTime);
});

test('a finished Job with ttlSecondsAfterFinished is deleted once its TTL runs out, its pods with it', async () => {
  const job = (name: string, ttl?: number) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
      template: { ...podTemplate(name, '10m'), spec: { ...podTemplate(name, '10m').spec, restartPolicy: 'Never' } },
    },
  });
  // ingress-nginx's admission Jobs set 0.
  await apply('/apis/batch/v1/namespaces/default/jobs/ttl-zero', job('ttl-zero', 0));
  await apply('/apis/batch/v1/namespaces/default/jobs/ttl-one', job('ttl-one', 1));
  await apply('/apis/batch/v1/namespaces/default/jobs/ttl-none', job('ttl-none'));
  const gone = async (name: string) =>
    (await api(member, 'GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).status === 404 &&
    (await get(`/api/v1/namespaces/default/pods?labelSelector=job-name%3D${name}`)).items.length === 0;
  await waitFor('the TTL 0 Job and its pod gone', () => gone('ttl-zero'));
  await waitFor('the TTL 1 Job gone', () => gone('ttl-one'));
  const kept = await waitFor('the Job without a TTL complete', async () => {
    const j = await get('/apis/batch/v1/namespaces/default/jobs/ttl-none');
    return j.status?.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
  });
  assert.is(kept.metadata.deletionTimestamp, undefined, 'no TTL, never deleted');
});

test('controllers name their pods with generateName <owner>- as GetPodFromTemplate does', async () => {
  await apply('/apis/apps/v1/namespaces/default/replicasets/gen', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'gen' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'gen' } }, template: podTemplate('gen', '10m') },
  });
  await apply('/apis/batch/v1/namespaces/default/jobs/genjob', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'genjob' },
    spec: {
      template: {
        ...podTemplate('genjob', '10m'),
        spec: { ...podTemplate('genjob', '10m').spec, restartPolicy: 'Never' },
      },
    },
  });
  await apply('/apis/apps/v1/namespaces/default/daemonsets/gends', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'gends' },
    spec: { selector: { matchLabels: { app: 'gends' } }, template: podTemplate('gends', '10m') },
  });
  for (const owner of ['gen', 'genjob', 'gends']) {
    const pod = await waitFor(
      owner,
      async () => (await get(`/api/v1/namespaces/default/pods?labelSelector=app%3D${owner}`)).items[0],
    );
    assert.is(pod.metadata.generateName, `${owner}-`, owner);
    assert.match(pod.metadata.name, new RegExp(`^${owner}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
  }
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/gen');
  await api(member, 'DELETE', '/apis/batch/v1/namespaces/default/jobs/genjob?propagationPolicy=Background');
  await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/daemonsets/gends');
});

test('deleting with propagationPolicy=Orphan keeps dependents and strips their ownerReference', async () => {
  await apply('/apis/apps/v1/namespaces/default/replicasets/lone', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'lone' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'lone' } }, template: podTemplate('lone', '10m') },
  });
  await waitFor(
    'pod',
    async () => (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dlone')).items.length === 1,
  );
  const del = await api(member, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/lone', {
    body: { propagationPolicy: 'Orphan' },
  });
  assert.is(del.status, 200);
  await member.settled();
  const pods = (await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dlone')).items;
  assert.is(pods.length, 1);
  assert.is(pods[0].metadata.ownerReferences, undefined);
});

test("Foreground and Orphan deletes answer with the object held by the collector's finalizer until dependents are handled", async () => {
  for (const [name, policy, finalizer] of [
    ['fg', 'Foreground', 'foregroundDeletion'],
    ['orph', 'Orphan', 'orphan'],
  ] as const) {
    await apply(`/apis/apps/v1/namespaces/default/replicasets/${name}`, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name },
      spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: podTemplate(name, '10m') },
    });
    await waitFor(
      `${name} pod`,
      async () => (await get(`/api/v1/namespaces/default/pods?labelSelector=app%3D${name}`)).items.length === 1,
    );
    const del = await api(
      member,
      'DELETE',
      `/apis/apps/v1/namespaces/default/replicasets/${name}?propagationPolicy=${policy}`,
    );
    assert.is(del.status, 200);
    assert.is(del.body.kind, 'ReplicaSet');
    assert.ok(del.body.metadata.deletionTimestamp);
    assert.ok(del.body.metadata.finalizers.includes(finalizer), JSON.stringify(del.body.metadata.finalizers));
    await member.settled();
    assert.is((await api(member, 'GET', `/apis/apps/v1/namespaces/default/replicasets/${name}`)).status, 404);
    const pods = (await get(`/api/v1/namespaces/default/pods?labelSelector=app%3D${name}`)).items;
    assert.is(pods.length, policy === 'Orphan' ? 1 : 0, policy);
  }
});

test('a deleted namespace takes its contents with it', async () => {
  assert.is((await api(member, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } })).status, 201);
  await api(member, 'POST', '/api/v1/namespaces/team/configmaps', { body: { metadata: { name: 'c' } } });
  const del = await api(member, 'DELETE', '/api/v1/namespaces/team');
  assert.is(del.status, 200);
  await waitFor('namespace gone', async () => (await api(member, 'GET', '/api/v1/namespaces/team')).status === 404);
  assert.is(member.store.list('/configmaps', 'team').length, 0);
  assert.is((await api(member, 'DELETE', '/api/v1/namespaces/default')).status, 403);
});

test('finalizers hold an object with deletionTimestamp until they are removed', async () => {
  await api(member, 'POST', '/api/v1/namespaces/default/configmaps', {
    body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
  });
  const del = await api(member, 'DELETE', '/api/v1/namespaces/default/configmaps/held');
  assert.is(del.status, 200);
  assert.ok(del.body.metadata.deletionTimestamp);
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/held')).status, 200);
  await api(member, 'PATCH', '/api/v1/namespaces/default/configmaps/held', {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: null } },
  });
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/held')).status, 404);
});

test('an object being deleted takes no new finalizer, and marking it for deletion bumps its generation', async () => {
  const path = '/apis/apps/v1/namespaces/default/deployments/going';
  await apply(path, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'going', finalizers: ['x.io/h'] },
    spec: { replicas: 0, selector: { matchLabels: { app: 'going' } }, template: podTemplate('going') },
  });
  const before = await get(path);
  const del = await api(member, 'DELETE', path);
  assert.is(del.body.metadata.generation, before.metadata.generation + 1);
  const added = await api(member, 'PATCH', path, {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: ['x.io/h', 'x.io/new'] } },
  });
  assert.is(added.status, 422);
  assert.is(
    added.body.message,
    'Deployment.apps "going" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x.io/new"}',
  );
  // A dry run is validated alike, and several new ones are listed sorted.
  const dry = await api(member, 'PATCH', `${path}?dryRun=All`, {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: ['x.io/h', 'x.io/z', 'x.io/b'] } },
  });
  assert.is(dry.status, 422);
  assert.match(dry.body.message, 'found new finalizers []string{"x.io/b", "x.io/z"}');
  await api(member, 'PATCH', path, {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: null } },
  });
  assert.is((await api(member, 'GET', path)).status, 404);
});

test('a custom resource without a status subresource bumps its generation when its status changes', async () => {
  await api(member, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.ex.io' },
      spec: {
        group: 'ex.io',
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    },
  });
  const path = '/apis/ex.io/v1/namespaces/default/widgets/w1';
  const created = await waitFor(
    'the Widget served',
    async () => {
      const r = await api(member, 'POST', '/apis/ex.io/v1/namespaces/default/widgets', {
        body: { apiVersion: 'ex.io/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { a: 1 } },
      });
      return r.status === 201 ? r.body : undefined;
    },
    10_000,
    50,
  );
  assert.is(created.metadata.generation, 1);
  const patched = await api(member, 'PATCH', path, {
    contentType: 'application/merge-patch+json',
    body: { status: { phase: 'x' } },
  });
  assert.is(patched.body.status.phase, 'x');
  assert.is(patched.body.metadata.generation, 2);
  const dry = await api(member, 'PATCH', `${path}?dryRun=All`, {
    contentType: 'application/merge-patch+json',
    body: { status: { phase: 'y' } },
  });
  assert.is(dry.body.metadata.generation, 3, 'a dry run says what the write would');
});

test('status subresource: main-resource writes ignore status, /status writes only status', async () => {
  const path = '/apis/apps/v1/namespaces/default/deployments/st';
  await apply(path, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'st' },
    spec: { replicas: 0, selector: { matchLabels: { app: 'st' } }, template: podTemplate('st') },
  });
  await member.settled();
  const before = await get(path);
  const mainWrite = await api(member, 'PATCH', path, {
    contentType: 'application/merge-patch+json',
    body: { status: { replicas: 99 } },
  });
  assert.is(mainWrite.body.status.replicas ?? 0, before.status.replicas ?? 0);
  const statusWrite = await api(member, 'PATCH', `${path}/status`, {
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 7 }, status: { observedGeneration: 42 } },
  });
  assert.is(statusWrite.status, 200);
  assert.is(statusWrite.body.spec.replicas, 0);
  assert.is(statusWrite.body.status.observedGeneration, 42);
  assert.is(statusWrite.body.metadata.generation, before.metadata.generation, 'status writes do not bump generation');
});

test("a container's restartPolicy and hooks are held to kube-apiserver's rules: a sidecar is admitted, a regular container's refused", async () => {
  const sidecarTemplate = {
    metadata: { labels: { app: 'meshed' } },
    spec: {
      initContainers: [
        {
          name: 'proxy',
          image: 'envoy:1.31',
          restartPolicy: 'Always',
          readinessProbe: { httpGet: { port: 15021, path: '/healthz/ready' } },
          lifecycle: { preStop: { sleep: { seconds: 5 } } },
        },
      ],
      containers: [{ name: 'app', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' }],
    },
  };
  const path = '/apis/apps/v1/namespaces/default/deployments/meshed';
  const deployment = (template: object) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'meshed' },
    spec: { replicas: 0, selector: { matchLabels: { app: 'meshed' } }, template },
  });
  assert.is((await apply(path, deployment(sidecarTemplate))).status, 201);
  const refused = await apply(
    path,
    deployment({
      metadata: sidecarTemplate.metadata,
      spec: {
        initContainers: [
          { name: 'app', image: 'busybox:1.36', lifecycle: { postStart: { exec: { command: ['x'] } } } },
        ],
        containers: [{ name: 'app', image: 'busybox:1.36', restartPolicy: 'Always' }],
      },
    }),
  );
  assert.is(refused.status, 422);
  assert.is(
    refused.body.message,
    'Deployment.apps "meshed" is invalid: [spec.template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers, spec.template.spec.initContainers[0].name: Duplicate value: "app", spec.template.spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always]',
  );
});

test.run();
