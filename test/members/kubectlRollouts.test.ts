import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// What `kubectl rollout` and Jobs look like against the emulator, as against a cluster's controllers.
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  annotations: {kubernetes.io/change-cause: first}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: "nginx:1.27"}
`;

const replicaSets = async () =>
  (await kubectl(['get', 'rs', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).stdout
    .split(' ')
    .filter(Boolean)
    .sort();

test("rollout undo goes back to the old revision's ReplicaSet, and history shows each change-cause", async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment)).code, 0);
  assert.is((await kubectl(['rollout', 'status', 'deploy/web', '--timeout=20s'])).code, 0);
  const first = await replicaSets();
  const set = await kubectl(['set', 'image', 'deploy/web', 'web=nginx:1.28']);
  assert.is(set.code, 0, set.stderr);
  assert.is((await kubectl(['annotate', 'deploy/web', '--overwrite', 'kubernetes.io/change-cause=second'])).code, 0);
  assert.is((await kubectl(['rollout', 'status', 'deploy/web', '--timeout=20s'])).code, 0);
  const two = await replicaSets();
  assert.is(two.length, 2);
  const history = await kubectl(['rollout', 'history', 'deploy/web']);
  assert.match(history.stdout, /^1\s+first$/m);
  assert.match(history.stdout, /^2\s+second$/m);
  const undo = await kubectl(['rollout', 'undo', 'deploy/web']);
  assert.is(undo.code, 0, undo.stderr);
  assert.is((await kubectl(['rollout', 'status', 'deploy/web', '--timeout=20s'])).code, 0);
  assert.equal(await replicaSets(), two, 'no third ReplicaSet: revision 1 is taken back');
  assert.ok(first.every((name) => two.includes(name)));
  const image = await kubectl(['get', 'deploy/web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
  assert.is(image.stdout, 'nginx:1.27');
});

test('a paused Deployment starts no rollout until it is resumed, and says so in its Progressing condition', async () => {
  const paused = deployment
    .replace('name: web\n  namespace', 'name: paused\n  namespace')
    .replaceAll('app: web', 'app: paused');
  assert.is((await kubectl(['apply', '-f', '-'], paused)).code, 0);
  assert.is((await kubectl(['rollout', 'status', 'deploy/paused', '--timeout=20s'])).code, 0);
  const sets = async () =>
    (
      await kubectl([
        'get',
        'rs',
        '-l',
        'app=paused',
        '-o',
        'jsonpath={.items[*].spec.template.spec.containers[0].image}',
      ])
    ).stdout;
  assert.is((await kubectl(['rollout', 'pause', 'deploy/paused'])).code, 0);
  assert.is((await kubectl(['set', 'image', 'deploy/paused', 'web=nginx:1.28'])).code, 0);
  const progressing = await waitFor('Progressing DeploymentPaused', async () => {
    const d = JSON.parse((await kubectl(['get', 'deploy', 'paused', '-o', 'json'])).stdout);
    const c = d.status.conditions.find((x: { type: string }) => x.type === 'Progressing');
    // Once the controller has seen the new template (observedGeneration), not before.
    return c?.reason === 'DeploymentPaused' && d.status.observedGeneration === d.metadata.generation ? c : undefined;
  });
  assert.is(progressing.status, 'Unknown');
  assert.is(progressing.message, 'Deployment is paused');
  assert.is(await sets(), 'nginx:1.27', 'no ReplicaSet for the new template while paused');
  assert.is((await kubectl(['rollout', 'resume', 'deploy/paused'])).code, 0);
  assert.is((await kubectl(['rollout', 'status', 'deploy/paused', '--timeout=20s'])).code, 0);
  assert.equal((await sets()).split(' ').sort(), ['nginx:1.27', 'nginx:1.28']);
});

test('StatefulSets and DaemonSets keep ControllerRevisions: rollout history lists them and undo goes back', async () => {
  const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: history, namespace: default}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: history}}
  template:
    metadata: {labels: {app: history}}
    spec: {containers: [{name: db, image: "postgres:16"}]}
`;
  const ds = sts
    .replace('StatefulSet', 'DaemonSet')
    .replace('{name: history,', '{name: agent,')
    .replace(/  serviceName: db\n  replicas: 1\n/, '')
    .replaceAll('app: history', 'app: agent');
  for (const [manifest, ref, container] of [
    [sts, 'statefulset/history', 'db'],
    [ds, 'daemonset/agent', 'db'],
  ] as const) {
    assert.is((await kubectl(['apply', '-f', '-'], manifest)).code, 0, ref);
    assert.is((await kubectl(['rollout', 'status', ref, '--timeout=20s'])).code, 0, ref);
    assert.is((await kubectl(['set', 'image', ref, `${container}=postgres:17`])).code, 0, ref);
    assert.is((await kubectl(['rollout', 'status', ref, '--timeout=20s'])).code, 0, ref);
    const history = await kubectl(['rollout', 'history', ref]);
    assert.is(history.code, 0, history.stderr);
    assert.match(history.stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/, ref);
    const undo = await kubectl(['rollout', 'undo', ref]);
    assert.is(undo.code, 0, undo.stderr);
    assert.is((await kubectl(['rollout', 'status', ref, '--timeout=20s'])).code, 0, ref);
    const image = await kubectl(['get', ref, '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
    assert.is(image.stdout, 'postgres:16', ref);
    // The first template's revision is renumbered, as Kubernetes' history does for an equivalent one.
    assert.match((await kubectl(['rollout', 'history', ref])).stdout, /\n2\s+<none>\n3\s+<none>/, ref);
  }
  const current = await kubectl(['get', 'statefulset/history', '-o', 'jsonpath={.status.currentRevision}']);
  assert.is((await kubectl(['get', 'controllerrevision', current.stdout])).code, 0, current.stdout);
});

test('a completed Job stays complete when its pods are deleted: nothing runs again', async () => {
  const created = await kubectl(
    ['create', '-f', '-'],
    `apiVersion: batch/v1
kind: Job
metadata:
  name: once
  namespace: default
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: once, image: busybox}
`,
  );
  assert.is(created.code, 0, created.stderr);
  const wait = await kubectl(['wait', '--for=condition=Complete', 'job/once', '--timeout=20s']);
  assert.is(wait.code, 0, wait.stderr);
  const completion = (await kubectl(['get', 'job/once', '-o', 'jsonpath={.status.completionTime}'])).stdout;
  assert.is((await kubectl(['delete', 'pods', '-l', 'job-name=once', '--wait=false'])).code, 0);
  await waitFor(
    'the pods gone',
    async () => (await kubectl(['get', 'pods', '-l', 'job-name=once', '-o', 'name'])).stdout.trim() === '',
  );
  const after = await kubectl(['get', 'job/once', '-o', 'jsonpath={.status.succeeded} {.status.completionTime}']);
  assert.is(after.stdout, `1 ${completion}`);
  assert.is((await kubectl(['get', 'pods', '-l', 'job-name=once', '-o', 'name'])).stdout.trim(), '');
});

test('an apply that drops an env var removes it, as kube-apiserver does, instead of leaving a nameless remnant', async () => {
  const withEnv = (env: string) =>
    deployment
      .replace('name: web\n  namespace', 'name: env-web\n  namespace')
      .replace('      - {name: web, image: "nginx:1.27"}', `      - {name: web, image: "nginx:1.27", env: [${env}]}`);
  const first = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    withEnv('{name: A, value: a}, {name: B, value: b}'),
  );
  assert.is(first.code, 0, first.stderr);
  const second = await kubectl(['apply', '--server-side', '-f', '-'], withEnv('{name: A, value: a}'));
  assert.is(second.code, 0, second.stderr);
  const env = await kubectl(['get', 'deploy/env-web', '-o', 'jsonpath={.spec.template.spec.containers[0].env}']);
  assert.equal(JSON.parse(env.stdout), [{ name: 'A', value: 'a' }]);
});

test("an update to what the API server keeps immutable is refused with its words: a selector, a StatefulSet's claims", async () => {
  const web = deployment.replace('name: web\n  namespace', 'name: fixed\n  namespace');
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], web)).code, 0);
  const moved = await kubectl(
    ['apply', '--server-side', '--force-conflicts', '-f', '-'],
    web.replaceAll('{app: web}', '{app: web2}'),
  );
  assert.is.not(moved.code, 0);
  assert.match(
    moved.stderr,
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  );
  const sts = (policy: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  podManagementPolicy: ${policy}
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
`;
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], sts('OrderedReady'))).code, 0);
  const changed = await kubectl(['apply', '--server-side', '-f', '-'], sts('Parallel'));
  assert.is.not(changed.code, 0);
  assert.match(changed.stderr, "spec: Forbidden: updates to statefulset spec for fields other than 'replicas'");
  // What may change still does.
  const scaled = await kubectl(['scale', 'sts/db', '--replicas=2']);
  assert.is(scaled.code, 0, scaled.stderr);
});

test('a patch that makes replicas a string, or an int32 field a number past int32, cannot be decoded, as kube-apiserver answers, and nothing is stored', async () => {
  const web = deployment
    .replace('name: web\n  namespace', 'name: typed\n  namespace')
    .replaceAll('{app: web}', '{app: typed}');
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], web)).code, 0);
  const patched = await kubectl(['patch', 'deploy/typed', '-p', '{"spec":{"replicas":"abc"}}']);
  assert.is.not(patched.code, 0);
  assert.match(
    patched.stderr,
    'cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  );
  assert.is((await kubectl(['get', 'deploy/typed', '-o', 'jsonpath={.spec.replicas}'])).stdout, '1');
  // A whole number past int32 is no int32 either: Go's decoder refuses it the same way.
  const overflow = await kubectl(['patch', 'deploy/typed', '-p', '{"spec":{"revisionHistoryLimit":2147483648}}']);
  assert.is.not(overflow.code, 0);
  assert.match(
    overflow.stderr,
    'cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.revisionHistoryLimit of type int32',
  );
  const largest = await kubectl(['patch', 'deploy/typed', '-p', '{"spec":{"revisionHistoryLimit":2147483647}}']);
  assert.is(largest.code, 0, largest.stderr);
  // Any boolean or numeric field of the Go types, down to a container's: a string in `paused` or `tty` is no bool.
  const paused = await kubectl(['patch', 'deploy/typed', '-p', '{"spec":{"paused":"nope"}}']);
  assert.match(paused.stderr, 'cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool');
  const tty = await kubectl([
    'patch',
    'deploy/typed',
    '-p',
    '{"spec":{"template":{"spec":{"containers":[{"name":"web","tty":"yes"}]}}}}',
  ]);
  assert.match(
    tty.stderr,
    'cannot unmarshal string into Go struct field Container.spec.template.spec.containers.tty of type bool',
  );
  assert.is((await kubectl(['get', 'deploy/typed', '-o', 'jsonpath={.spec.paused}'])).stdout, '');
});

test('a rollout that makes no progress within progressDeadlineSeconds is reported as exceeding it, and recovers once pods run', async () => {
  const stuck = `apiVersion: apps/v1
kind: Deployment
metadata: {name: stuck, namespace: default}
spec:
  replicas: 1
  progressDeadlineSeconds: 2
  selector:
    matchLabels: {app: stuck}
  template:
    metadata:
      labels: {app: stuck}
    spec:
      nodeSelector: {pool: nowhere}
      containers:
      - {name: web, image: "nginx:1.27"}
`;
  assert.is((await kubectl(['apply', '-f', '-'], stuck)).code, 0);
  const status = await kubectl(['rollout', 'status', 'deploy/stuck', '--timeout=30s']);
  assert.is.not(status.code, 0);
  assert.match(status.stderr, 'deployment "stuck" exceeded its progress deadline');
  const progressing = '{.status.conditions[?(@.type=="Progressing")]}';
  const condition = JSON.parse((await kubectl(['get', 'deploy/stuck', '-o', `jsonpath=${progressing}`])).stdout);
  assert.is(condition.status, 'False');
  assert.is(condition.reason, 'ProgressDeadlineExceeded');
  assert.match(condition.message, /^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/);
  // Progress (the pods can be placed now) ends the timeout, as the deployment controller's next sync sees it.
  const fixed = await kubectl([
    'patch',
    'deploy/stuck',
    '--type',
    'json',
    '-p',
    '[{"op":"remove","path":"/spec/template/spec/nodeSelector"}]',
  ]);
  assert.is(fixed.code, 0, fixed.stderr);
  const again = await kubectl(['rollout', 'status', 'deploy/stuck', '--timeout=30s']);
  assert.is(again.code, 0, again.stderr);
  const done = JSON.parse((await kubectl(['get', 'deploy/stuck', '-o', `jsonpath=${progressing}`])).stdout);
  assert.is(done.reason, 'NewReplicaSetAvailable');
});

test('a ReplicationController keeps its pods as the ReplicationManager does: kubectl get rc counts them, kubectl scale takes them down', async () => {
  const rc = `apiVersion: v1
kind: ReplicationController
metadata: {name: guestbook, namespace: default}
spec:
  replicas: 3
  selector: {app: guestbook}
  template:
    metadata: {labels: {app: guestbook}}
    spec:
      containers:
      - {name: guestbook, image: "registry.k8s.io/guestbook:v3"}
`;
  assert.is((await kubectl(['apply', '-f', '-'], rc)).code, 0);
  const listed = await waitFor('guestbook 3 ready', async () => {
    const get = await kubectl(['get', 'rc', 'guestbook']);
    return /^guestbook\s+3\s+3\s+3\s/m.test(get.stdout) ? get.stdout : undefined;
  });
  assert.match(listed, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/m);
  const pods = JSON.parse((await kubectl(['get', 'pods', '-l', 'app=guestbook', '-o', 'json'])).stdout).items;
  assert.is(pods.length, 3);
  for (const pod of pods) {
    assert.match(pod.metadata.name, /^guestbook-[a-z0-9]{5}$/);
    assert.equal(
      pod.metadata.ownerReferences.map((r: { kind: string; name: string; controller: boolean }) => [
        r.kind,
        r.name,
        r.controller,
      ]),
      [['ReplicationController', 'guestbook', true]],
    );
  }
  assert.is((await kubectl(['scale', 'rc', 'guestbook', '--replicas=1'])).code, 0);
  await waitFor('guestbook scaled to 1', async () => {
    const left = JSON.parse((await kubectl(['get', 'pods', '-l', 'app=guestbook', '-o', 'json'])).stdout).items;
    const get = await kubectl(['get', 'rc', 'guestbook']);
    return left.length === 1 && /^guestbook\s+1\s+1\s+1\s/m.test(get.stdout) ? get.stdout : undefined;
  });
});

test('applying a field at its omitempty zero again changes nothing stored: the generation stays, as no spec changed', async () => {
  const zeroed = `apiVersion: apps/v1
kind: Deployment
metadata: {name: zeroed, namespace: default}
spec:
  replicas: 1
  minReadySeconds: 0
  selector: {matchLabels: {app: zeroed}}
  template:
    metadata: {labels: {app: zeroed}}
    spec:
      hostNetwork: false
      containers:
      - {name: zeroed, image: "nginx:1.27", args: []}
`;
  const generation = async () =>
    (await kubectl(['get', 'deployment', 'zeroed', '-o', 'jsonpath={.metadata.generation}'])).stdout;
  for (const args of [['apply', '--server-side'], ['apply', '--server-side'], ['apply']]) {
    const applied = await kubectl([...args, '-f', '-'], zeroed);
    assert.is(applied.code, 0, applied.stderr);
    assert.is(await generation(), '1', args.join(' '));
  }
  // What it stores has none of them, as kube-apiserver's Go types write none back.
  const spec = JSON.parse((await kubectl(['get', 'deployment', 'zeroed', '-o', 'json'])).stdout).spec;
  assert.equal(
    [spec.minReadySeconds, spec.template.spec.hostNetwork, spec.template.spec.containers[0].args],
    [undefined, undefined, undefined],
  );
});

test('a server-side apply of what is already stored is no write: its resourceVersion and managedFields time stay', async () => {
  const priorityClass =
    'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: steady}\nvalue: 100\nglobalDefault: false\n';
  const read = async () =>
    (
      await kubectl([
        'get',
        'pc',
        'steady',
        '-o',
        'jsonpath={.metadata.resourceVersion} {.metadata.managedFields[0].time}',
      ])
    ).stdout;
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], priorityClass)).code, 0);
  const first = await read();
  // Past the second the first apply stamped, so a new time would differ.
  await waitFor('a new second', async () =>
    new Date().toISOString().slice(0, 19) + 'Z' !== first.split(' ')[1] ? true : undefined,
  );
  for (let i = 0; i < 2; i++) {
    assert.is((await kubectl(['apply', '--server-side', '-f', '-'], priorityClass)).code, 0);
    assert.is(await read(), first);
  }
});

test.run();
