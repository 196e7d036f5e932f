import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// What the API server adds to objects on write and clients read back: ServiceAccount admission on pods
// (also those controllers create), generated Job selectors, Service addresses kept across a replace.

const harness = new MemberHarness();
let member: Member;
const NS = '/api/v1/namespaces/default';

test.before(async () => {
  member = await harness.start({ name: 'added' });
  await member.settled();
});

test.after(async () => {
  await harness.cleanup();
});

test('a created pod runs as the default ServiceAccount with its token mounted; an unknown account is Forbidden', async () => {
  const res = await api(member, 'POST', `${NS}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'solo' },
      spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
    },
  });
  assert.is(res.status, 201);
  assert.is(res.body.spec.serviceAccountName, 'default');
  assert.match(res.body.spec.volumes[0].name, /^kube-api-access-/);
  assert.is(res.body.spec.containers[0].volumeMounts[0].mountPath, '/var/run/secrets/kubernetes.io/serviceaccount');
  const ghost = await api(member, 'POST', `${NS}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ghost' },
      spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'busybox:1.36' }] },
    },
  });
  assert.is(ghost.status, 403);
  assert.is(
    ghost.body.message,
    'pods "ghost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
  );
});

test('pods a controller creates carry the same defaults and admission as pods created through the API', async () => {
  const res = await api(member, 'PATCH', '/apis/apps/v1/namespaces/default/replicasets/rs?fieldManager=test', {
    contentType: 'application/apply-patch+yaml',
    body: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'rs' } },
        template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } },
      },
    },
  });
  assert.is(res.status, 201);
  const pod = await waitFor(
    "the ReplicaSet's pod",
    async () => (await api(member, 'GET', `${NS}/pods?labelSelector=app%3Drs`)).body.items[0],
  );
  assert.is(pod.spec.serviceAccountName, 'default');
  assert.is(pod.spec.enableServiceLinks, true);
  assert.match(pod.spec.volumes[0].name, /^kube-api-access-/);
});

test('a created Job reads back with a selector on its own uid and the job labels on its template', async () => {
  const res = await api(member, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
    },
  });
  assert.is(res.status, 201);
  const uid = res.body.metadata.uid;
  assert.equal(res.body.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  assert.is(res.body.spec.template.metadata.labels['job-name'], 'once');
  assert.is((await api(member, 'GET', '/apis/batch/v1/namespaces/default/jobs/once')).body.metadata.uid, uid);
});

test('replacing a Service with its original manifest keeps the cluster IP and node port it was given', async () => {
  const manifest = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
  };
  const created = await api(member, 'POST', `${NS}/services`, { body: manifest });
  assert.is(created.status, 201);
  const { clusterIP } = created.body.spec;
  const { nodePort } = created.body.spec.ports[0];
  assert.ok(nodePort >= 30000 && nodePort <= 32767, String(nodePort));
  const replaced = await api(member, 'PUT', `${NS}/services/web`, { body: manifest });
  assert.is(replaced.status, 200);
  assert.is(replaced.body.spec.clusterIP, clusterIP);
  assert.is(replaced.body.spec.ports[0].nodePort, nodePort);
});

test("created objects read back with their kind's zero status: Pending pods with a QoS class, zero counters", async () => {
  const pod = await api(member, 'POST', `${NS}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sized' },
      spec: {
        containers: [{ name: 'c', image: 'busybox:1.36', resources: { limits: { cpu: '1', memory: '128Mi' } } }],
      },
    },
  });
  assert.equal(pod.body.status, { phase: 'Pending', qosClass: 'Guaranteed' });
  const ds = await api(member, 'POST', '/apis/apps/v1/namespaces/default/daemonsets?dryRun=All', {
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
        },
      },
    },
  });
  assert.equal(ds.body.status, {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
  });
  const svc = await api(member, 'POST', `${NS}/services?dryRun=All`, {
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb' }, spec: { ports: [{ port: 80 }] } },
  });
  assert.equal(svc.body.status, { loadBalancer: {} });
});

test('an object no manager owns a field of has no managedFields, as omitempty leaves it out', async () => {
  const res = await api(member, 'PATCH', `${NS}/configmaps/bare?fieldManager=test`, {
    contentType: 'application/apply-patch+yaml',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare' } },
  });
  assert.is(res.status, 201);
  assert.not.ok('managedFields' in res.body.metadata);
  assert.not.ok('managedFields' in (await api(member, 'GET', `${NS}/configmaps/bare`)).body.metadata);
});

test('empty and zero values of omitempty fields are not stored; pointers and objects keep theirs', async () => {
  const kubectl = harness.kubectl([member]);
  const manifests = `apiVersion: v1
kind: ConfigMap
metadata: {name: blank, labels: {}, annotations: {}, finalizers: [], generateName: ""}
data: {}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: sparse}
spec:
  replicas: 0
  minReadySeconds: 0
  paused: false
  selector: {matchLabels: {app: sparse}, matchExpressions: []}
  template:
    metadata: {labels: {app: sparse}, annotations: {}}
    spec:
      serviceAccountName: ""
      nodeSelector: {}
      tolerations: []
      volumes: [{name: scratch, emptyDir: {}}]
      containers: [{name: c, image: nginx, env: [], args: [], workingDir: "", stdin: false, ports: []}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: unclassed}
spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get], resourceNames: []}]
`;
  const created = await kubectl(['create', '-f', '-'], manifests);
  assert.is(created.code, 0, created.stderr);
  const blank = (await api(member, 'GET', `${NS}/configmaps/blank`)).body;
  // Nor are they anyone's: the create's manager owns no field, so its managedFields entry is dropped, as
  // structured-merge-diff drops a manager left with an empty set.
  assert.equal(Object.keys(blank.metadata).sort(), [
    'creationTimestamp',
    'name',
    'namespace',
    'resourceVersion',
    'uid',
  ]);
  assert.is(blank.data, undefined);
  const sparse = (await api(member, 'GET', '/apis/apps/v1/namespaces/default/deployments/sparse')).body;
  assert.is(sparse.spec.replicas, 0, 'a pointer keeps its zero');
  assert.is(sparse.spec.minReadySeconds, undefined);
  assert.is(sparse.spec.paused, undefined);
  assert.equal(sparse.spec.selector, { matchLabels: { app: 'sparse' } });
  const pod = sparse.spec.template.spec;
  assert.equal(sparse.spec.template.metadata, { labels: { app: 'sparse' } });
  for (const field of ['serviceAccountName', 'nodeSelector', 'tolerations']) assert.is(pod[field], undefined, field);
  assert.equal(pod.volumes, [{ name: 'scratch', emptyDir: {} }], 'an object keeps its emptiness');
  for (const field of ['env', 'args', 'workingDir', 'stdin', 'ports'])
    assert.is(pod.containers[0][field], undefined, field);
  assert.is(pod.containers[0].resources !== undefined, true, 'a struct is never omitted');
  const claim = (await api(member, 'GET', `${NS}/persistentvolumeclaims/unclassed`)).body;
  assert.is(claim.spec.storageClassName, '', 'an empty *string is set');
  const role = (await api(member, 'GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/reader')).body;
  assert.equal(role.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
});

test("a custom resource's Scale without labelSelectorPath has no selector", async () => {
  const crd = await api(member, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          },
        ],
      },
    },
  });
  assert.is(crd.status, 201);
  const path = '/apis/example.com/v1/namespaces/default/widgets';
  await waitFor('served', async () => (await api(member, 'GET', path)).status === 200);
  assert.is(
    (
      await api(member, 'POST', path, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 2 } },
      })
    ).status,
    201,
  );
  const scale = (await api(member, 'GET', `${path}/w/scale`)).body;
  assert.is(scale.spec.replicas, 2);
  assert.not.ok('selector' in scale.status);
});

test.run();
