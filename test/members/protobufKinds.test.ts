import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// client-go's typed clients send built-in kinds as protobuf and never fall back to JSON, so every `kubectl create
// <kind>` and `kubectl drain` below depends on the emulator decoding that kind's protobuf message.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

type Json = any;

async function create(args: string[]): Promise<string> {
  const out = await kubectl(['create', ...args]);
  assert.is(out.code, 0, `kubectl create ${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

async function getJson(resource: string, ...extra: string[]): Promise<Json> {
  const out = await kubectl(['get', resource, '-o', 'json', ...extra]);
  assert.is(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
}

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test('kubectl create job, cronjob and service work against the emulator as against a cluster', async () => {
  assert.match(await create(['job', 'once', '--image=busybox:1.36', '--', 'echo', 'hi']), 'job.batch/once created');
  const job = await getJson('job/once');
  assert.is(job.spec.template.spec.containers[0].image, 'busybox:1.36');
  assert.equal(job.spec.template.spec.containers[0].command, ['echo', 'hi']);
  assert.is(job.spec.template.spec.restartPolicy, 'Never');
  assert.is(job.spec.completions, 1);
  assert.is(job.spec.parallelism, 1);
  const done = await kubectl(['wait', '--for=condition=complete', 'job/once', '--timeout=20s']);
  assert.is(done.code, 0, done.stderr);

  assert.match(
    await create(['cronjob', 'nightly', '--image=busybox:1.36', '--schedule=0 3 * * *', '--', 'date']),
    'cronjob.batch/nightly created',
  );
  const cron = await getJson('cronjob/nightly');
  assert.is(cron.spec.schedule, '0 3 * * *');
  assert.is(cron.spec.jobTemplate.spec.template.spec.containers[0].image, 'busybox:1.36');
  assert.is(cron.spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');

  // The Job kubectl builds from the CronJob carries everything the server defaulted in it, and an owner reference.
  assert.match(await create(['job', 'nightly-now', '--from=cronjob/nightly']), 'job.batch/nightly-now created');
  const manual = await getJson('job/nightly-now');
  assert.equal(manual.spec.template.spec.containers[0].command, ['date']);
  assert.is(manual.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual');
  assert.equal(
    manual.metadata.ownerReferences.map((o: Json) => [o.kind, o.name, o.uid, o.controller]),
    [['CronJob', 'nightly', cron.metadata.uid, true]],
  );

  assert.match(
    await create(['service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:https']),
    'service/web created',
  );
  const web = await getJson('service/web');
  assert.is(web.spec.type, 'ClusterIP');
  assert.equal(
    web.spec.ports.map((p: Json) => [p.name, p.protocol, p.port, p.targetPort]),
    [
      ['80-8080', 'TCP', 80, 8080],
      ['443-https', 'TCP', 443, 'https'],
    ],
  );
  assert.equal(web.spec.selector, { app: 'web' });
  await create(['service', 'nodeport', 'edge', '--tcp=80:8080', '--node-port=30080']);
  const edge = await getJson('service/edge');
  assert.is(edge.spec.type, 'NodePort');
  assert.is(edge.spec.ports[0].nodePort, 30080);
  assert.is(edge.spec.ports[0].targetPort, 8080);
  await create(['service', 'externalname', 'upstream', '--external-name=example.com']);
  const upstream = await getJson('service/upstream');
  assert.is(upstream.spec.type, 'ExternalName');
  assert.is(upstream.spec.externalName, 'example.com');
});

test('kubectl create serviceaccount, role, clusterrole and their bindings keep every rule and subject', async () => {
  assert.match(await create(['serviceaccount', 'deployer']), 'serviceaccount/deployer created');
  assert.is((await getJson('serviceaccount/deployer')).metadata.name, 'deployer');

  await create(['role', 'pod-reader', '--verb=get,list', '--resource=pods,deployments.apps', '--resource-name=a']);
  assert.equal((await getJson('role/pod-reader')).rules, [
    { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get', 'list'] },
    { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'], verbs: ['get', 'list'] },
  ]);
  await create(['clusterrole', 'log-reader', '--verb=get', '--non-resource-url=/logs/*']);
  assert.equal((await getJson('clusterrole/log-reader')).rules, [{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }]);
  await create(['clusterrole', 'viewers', '--aggregation-rule=example.com/aggregate-to-view=true']);
  assert.equal((await getJson('clusterrole/viewers')).aggregationRule, {
    clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-view': 'true' } }],
  });

  await create(['rolebinding', 'read-pods', '--role=pod-reader', '--serviceaccount=default:deployer', '--user=alice']);
  const binding = await getJson('rolebinding/read-pods');
  assert.equal(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
  assert.equal(binding.subjects.map((s: Json) => [s.kind, s.name, s.namespace]).sort(), [
    ['ServiceAccount', 'deployer', 'default'],
    ['User', 'alice', undefined],
  ]);
  await create(['clusterrolebinding', 'read-logs', '--clusterrole=log-reader', '--group=devs']);
  const clusterBinding = await getJson('clusterrolebinding/read-logs');
  assert.equal(clusterBinding.roleRef, {
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name: 'log-reader',
  });
  assert.equal(clusterBinding.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }]);
});

test('kubectl create quota, pdb and priorityclass keep quantities, int-or-percent budgets and a zero value', async () => {
  assert.match(
    await create(['quota', 'team', '--hard=pods=4,requests.cpu=2,limits.memory=4Gi', '--scopes=NotTerminating']),
    'resourcequota/team created',
  );
  const quota = await getJson('quota/team');
  assert.equal(quota.spec.hard, { pods: '4', 'requests.cpu': '2', 'limits.memory': '4Gi' });
  assert.equal(quota.spec.scopes, ['NotTerminating']);
  // Enforced: the namespace's later pods, which request nothing, would be refused under it.
  assert.is((await kubectl(['delete', 'quota', 'team'])).code, 0);

  assert.match(
    await create(['pdb', 'web-min', '--selector=app=web', '--min-available=1']),
    'poddisruptionbudget.policy/web-min created',
  );
  const min = await getJson('pdb/web-min');
  assert.is(min.spec.minAvailable, 1);
  assert.equal(min.spec.selector, { matchLabels: { app: 'web' } });
  await create(['pdb', 'web-max', '--selector=app=web', '--max-unavailable=50%']);
  assert.is((await getJson('pdb/web-max')).spec.maxUnavailable, '50%');

  await create([
    'priorityclass',
    'batch-high',
    '--value=1000',
    '--description=batch work',
    '--preemption-policy=Never',
  ]);
  const high = await getJson('priorityclass/batch-high');
  assert.equal([high.value, high.description, high.preemptionPolicy], [1000, 'batch work', 'Never']);
  // value has no omitempty in Go: an explicit 0 is data, not an absent field.
  await create(['priorityclass', 'batch-zero', '--value=0']);
  assert.is((await getJson('priorityclass/batch-zero')).value, 0);
});

test('kubectl create ingress keeps its class, TLS, default backend and each rule path with its service port', async () => {
  assert.match(
    await create([
      'ingress',
      'site',
      '--class=nginx',
      '--rule=shop.example.com/api*=api:8080',
      '--rule=secure.example.com/=web:https,tls=secure-cert',
      '--default-backend=web:80',
    ]),
    'ingress.networking.k8s.io/site created',
  );
  const ingress = await getJson('ingress/site');
  assert.is(ingress.spec.ingressClassName, 'nginx');
  assert.equal(ingress.spec.defaultBackend, { service: { name: 'web', port: { number: 80 } } });
  assert.equal(ingress.spec.tls, [{ hosts: ['secure.example.com'], secretName: 'secure-cert' }]);
  assert.equal(ingress.spec.rules, [
    {
      host: 'shop.example.com',
      http: {
        paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 8080 } } } }],
      },
    },
    {
      host: 'secure.example.com',
      http: {
        paths: [{ path: '/', pathType: 'Exact', backend: { service: { name: 'web', port: { name: 'https' } } } }],
      },
    },
  ]);
});

test('kubectl drain cordons a node and deletes its pods with protobuf DeleteOptions, and they come back elsewhere', async () => {
  await create(['deployment', 'drained', '--image=nginx:1.27', '--replicas=3']);
  await waitFor('drained READY 3/3', async () =>
    /^drained\s+3\/3\s/m.test((await kubectl(['get', 'deploy', 'drained'])).stdout),
  );
  const podsOn = async (node: string) => {
    const list = await getJson('pods', '-l', 'app=drained', `--field-selector=spec.nodeName=${node}`);
    return list.items.map((p: Json) => p.metadata.name as string);
  };
  const pods = (await getJson('pods', '-l', 'app=drained')).items;
  const node = pods[0].spec.nodeName as string;
  const before = await podsOn(node);
  assert.ok(before.length > 0);

  // Without a pods/eviction subresource in discovery, drain falls back to DELETE with a protobuf DeleteOptions body.
  const drain = await kubectl(['drain', node, '--ignore-daemonsets', '--grace-period=1', '--timeout=20s']);
  assert.is(drain.code, 0, drain.stderr);
  assert.match(drain.stdout, `node/${node} drained`);
  assert.equal(await podsOn(node), []);
  assert.is((await getJson(`node/${node}`)).spec.unschedulable, true);
  await waitFor('drained READY 3/3 again on the other nodes', async () =>
    /^drained\s+3\/3\s/m.test((await kubectl(['get', 'deploy', 'drained'])).stdout),
  );
  assert.not.ok((await getJson('pods', '-l', 'app=drained')).items.some((p: Json) => p.spec.nodeName === node));
  assert.is((await kubectl(['uncordon', node])).code, 0);
});

/** A length-delimited protobuf field; the tests' messages are small enough for one-byte keys and lengths (ASCII). */
const field = (n: number, value: string) => String.fromCharCode((n << 3) | 2, value.length) + value;
/** The `k8s\0` + runtime.Unknown envelope client-go sends: TypeMeta{apiVersion, kind} and the raw message. */
const envelope = (apiVersion: string, kind: string, raw: string) =>
  `k8s\0${field(1, field(1, apiVersion) + field(2, kind))}${field(2, raw)}`;

test('a kind or a field without a protobuf schema is refused with 415 rather than stored with data lost', async () => {
  const post = (path: string, body: string) =>
    api(member, 'POST', path, { body, contentType: 'application/vnd.kubernetes.protobuf' });
  const statefulSet = await post(
    '/apis/apps/v1/namespaces/default/statefulsets',
    envelope('apps/v1', 'StatefulSet', field(1, field(1, 'db'))),
  );
  assert.is(statefulSet.status, 415);
  assert.match(statefulSet.body.message, 'protobuf bodies of kind "StatefulSet" are not supported by this emulator');
  // JobSpec.podFailurePolicy (field 11) is not decoded: a Job carrying one is refused, not created without it.
  const policy = field(1, field(1, 'FailJob'));
  const job = await post(
    '/apis/batch/v1/namespaces/default/jobs',
    envelope('batch/v1', 'Job', field(1, field(1, 'strict')) + field(2, field(11, policy))),
  );
  assert.is(job.status, 415);
  assert.match(job.body.message, 'field 11 of JobSpec is not supported by this emulator');
  assert.is((await kubectl(['get', 'statefulset/db', 'job/strict', '--ignore-not-found'])).stdout.trim(), '');
});

/** A varint field (int32, int64, bool). */
const varintField = (n: number, value: number) => {
  let bytes = String.fromCharCode(n << 3);
  let v = BigInt(value);
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    bytes += String.fromCharCode(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return bytes;
};

test("a Lease as client-go's LeaseLock sends it: MicroTimes to the microsecond, a released Lease's empty holder kept", async () => {
  const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  const send = (method: string, url: string, spec: string, rv = '') =>
    api(member, method, url, {
      // Varints above 127 are bytes, not characters: sent as Latin-1.
      body: Buffer.from(
        envelope(
          'coordination.k8s.io/v1',
          'Lease',
          field(1, field(1, 'kcm') + (rv ? field(6, rv) : '')) + field(2, spec),
        ),
        'latin1',
      ),
      contentType: 'application/vnd.kubernetes.protobuf',
    });
  // 2024-01-02T03:04:05.123456789Z: the nanoseconds are truncated to microseconds.
  const at = field(3, varintField(1, 1704164645) + varintField(2, 123456789));
  const held =
    field(1, 'kcm-1') +
    varintField(2, 15) +
    at +
    field(4, varintField(1, 1704164645) + varintField(2, 5000)) +
    varintField(5, 2);
  const created = await send('POST', path, held);
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.spec, {
    holderIdentity: 'kcm-1',
    leaseDurationSeconds: 15,
    acquireTime: '2024-01-02T03:04:05.123456Z',
    renewTime: '2024-01-02T03:04:05.000005Z',
    leaseTransitions: 2,
  });
  const released = field(1, '') + varintField(2, 1) + at + varintField(5, 2);
  const put = await send('PUT', `${path}/kcm`, released, created.body.metadata.resourceVersion);
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.is(put.body.spec.holderIdentity, '');
  assert.is(put.body.spec.leaseDurationSeconds, 1);
  const stale = await send('PUT', `${path}/kcm`, released, created.body.metadata.resourceVersion);
  assert.is(stale.status, 409);
});

test.run();
