import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { MemberHarness } from './helpers/memberHarness.ts';

// The official Python client (Debian's python3-kubernetes, installed by .ci/run for /usr/bin/python3, not the
// pyenv python3 on PATH) against a member, unchanged: kubeconfig with CA data and a bearer token, typed
// models, watch.Watch().stream.

const PYTHON = '/usr/bin/python3';

const SCRIPT = `
import json, sys
from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
apps = client.AppsV1Api()
out = {}

out['namespaces'] = sorted(ns.metadata.name for ns in core.list_namespace().items)

apps.create_namespaced_deployment('default', {
    'apiVersion': 'apps/v1', 'kind': 'Deployment',
    'metadata': {'name': 'web', 'labels': {'app': 'web'}},
    'spec': {
        'replicas': 1,
        'selector': {'matchLabels': {'app': 'web'}},
        'template': {
            'metadata': {'labels': {'app': 'web'}},
            'spec': {'containers': [{'name': 'web', 'image': 'nginx:1.27', 'ports': [{'containerPort': 80}]}]},
        },
    },
})
core.create_namespaced_secret('default', {
    'apiVersion': 'v1', 'kind': 'Secret',
    'metadata': {'name': 'creds'},
    'stringData': {'password': 's3cr3t'},
})

events = []
ready = None
w = watch.Watch()
for event in w.stream(core.list_namespaced_pod, 'default', label_selector='app=web', timeout_seconds=20):
    pod = event['object']
    events.append(event['type'])
    conditions = pod.status.conditions or []
    if any(c.type == 'Ready' and c.status == 'True' for c in conditions):
        ready = {'name': pod.metadata.name, 'phase': pod.status.phase, 'serviceAccount': pod.spec.service_account_name}
        w.stop()
out['podEvents'] = events
out['readyPod'] = ready

deployment = apps.read_namespaced_deployment('web', 'default')
out['deployment'] = {'readyReplicas': deployment.status.ready_replicas, 'strategy': deployment.spec.strategy.type}

secret = core.read_namespaced_secret('creds', 'default')
out['secret'] = {'data': secret.data, 'stringData': secret.string_data, 'type': secret.type}

out['defaultServiceAccount'] = core.read_namespaced_service_account('default', 'default').metadata.name
out['rootCa'] = core.read_namespaced_config_map('kube-root-ca.crt', 'default').data['ca.crt']

print(json.dumps(out))
`;

const harness = new MemberHarness();
let member: Member;
let kubeconfig: string;
let script: string;

test.before(async () => {
  member = await harness.start({ name: 'python', freshReadTimeoutMs: 300 });
  const dir = harness.tempDir('flotilla-python-');
  kubeconfig = path.join(dir, 'members.config');
  writeKubeconfig(kubeconfig, [member]);
  script = path.join(dir, 'client.py');
  writeFileSync(script, SCRIPT);
});

test.after(async () => {
  await harness.cleanup();
});

function runPython(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      args,
      { env: { PATH: process.env.PATH ?? '', HOME: path.dirname(script) }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

test("the official Python client lists, creates, watches a Deployment's pod to Ready and reads a Secret back", async () => {
  const run = await runPython([script, kubeconfig]);
  assert.is(
    run.code,
    0,
    `${PYTHON} ${script} failed (is python3-kubernetes installed? .ci/run installs it):\n${run.stderr}`,
  );
  const out = JSON.parse(run.stdout);
  assert.equal(out.namespaces, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  assert.ok(out.readyPod, `no Ready pod before timeout_seconds; events: ${out.podEvents}`);
  assert.match(out.readyPod.name, /^web-[a-z0-9]+-[a-z0-9]{5}$/);
  assert.is(out.readyPod.phase, 'Running');
  assert.is(out.readyPod.serviceAccount, 'default');
  assert.is(out.podEvents[0], 'ADDED');
  assert.is(out.deployment.strategy, 'RollingUpdate');
  assert.equal(out.secret, {
    data: { password: Buffer.from('s3cr3t').toString('base64') },
    stringData: null,
    type: 'Opaque',
  });
  assert.is(out.defaultServiceAccount, 'default');
  assert.is(out.rootCa, member.caPem);
});

const LOGS_SCRIPT = `
import json, sys
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()

def pod(name, containers, node_selector=None):
    spec = {'initContainers': [{'name': 'setup', 'image': 'busybox:1.36'}], 'containers': containers}
    if node_selector:
        spec['nodeSelector'] = node_selector
    core.create_namespaced_pod('default', {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name}, 'spec': spec})

pod('two', [{'name': 'web', 'image': 'nginx:1.27'}, {'name': 'side', 'image': 'busybox:1.36'}])
pod('nowhere', [{'name': 'web', 'image': 'nginx:1.27'}], {'no-such-node': 'true'})
for event in watch.Watch().stream(core.list_namespaced_pod, 'default', field_selector='metadata.name=two', timeout_seconds=20):
    if any(c.type == 'Ready' and c.status == 'True' for c in event['object'].status.conditions or []):
        break

def log(name, **kwargs):
    try:
        return {'text': core.read_namespaced_pod_log(name, 'default', **kwargs)}
    except ApiException as e:
        body = json.loads(e.body)
        return {'code': e.status, 'reason': body['reason'], 'message': body['message']}

print(json.dumps({
    'named': log('two', container='side'),
    'unnamed': log('two'),
    'unknown': log('two', container='nope'),
    'initContainer': log('two', container='setup'),
    'unscheduled': log('nowhere'),
    'previous': log('two', container='web', previous=True),
    'badOptionsOnMissingPod': log('missing', tail_lines=-1),
}))
`;

test('pod logs name their container as kube-apiserver requires, and the kubelet has them only for a container that ran', async () => {
  const logsScript = path.join(path.dirname(script), 'logs.py');
  writeFileSync(logsScript, LOGS_SCRIPT);
  const run = await runPython([logsScript, kubeconfig]);
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.named, { text: 'flotilla member emulator: pod two is simulated and writes no logs\n' });
  assert.equal(out.initContainer, out.named);
  assert.equal(out.unnamed, {
    code: 400,
    reason: 'BadRequest',
    message: 'a container name must be specified for pod two, choose one of: [setup web side]',
  });
  assert.equal(out.unknown, { code: 400, reason: 'BadRequest', message: 'container nope is not valid for pod two' });
  assert.equal(out.unscheduled, { text: '' });
  // The kubelet's answer, relayed by the API server: no container of this pod has run before.
  assert.equal(out.previous, {
    code: 400,
    reason: 'BadRequest',
    message: 'previous terminated container "web" in pod "two" not found',
  });
  assert.is(out.badOptionsOnMissingPod.code, 422);
  assert.match(out.badOptionsOnMissingPod.message, 'tailLines: Invalid value: -1: must be greater than or equal to 0');
});

const SCALE_APPLY_SCRIPT = `
import json, sys
from kubernetes import config, dynamic
from kubernetes.client import api_client
from kubernetes.dynamic.exceptions import ConflictError

client = dynamic.DynamicClient(api_client.ApiClient(configuration=config.load_kube_config(config_file=sys.argv[1])))
scale = client.resources.get(api_version='apps/v1', kind='Deployment').subresources['scale']
# python3-kubernetes 22 sends an apply patch only as text.
body = json.dumps({'apiVersion': 'autoscaling/v1', 'kind': 'Scale', 'metadata': {'name': 'scaled', 'namespace': 'default'}, 'spec': {'replicas': 7}})
out = {}
try:
    client.server_side_apply(scale, body=body, name='scaled', namespace='default', field_manager='autoscaler')
    out['unforced'] = 'applied'
except ConflictError as e:
    out['unforced'] = {'status': e.status, 'message': json.loads(e.body)['message']}
out['forced'] = client.server_side_apply(scale, body=body, name='scaled', namespace='default', field_manager='autoscaler', force_conflicts=True).spec.replicas
print(json.dumps(out))
`;

test('replicas written through the scale subresource are owned as kube-apiserver owns them: by a scale manager, with conflicts', async () => {
  const kubectl = harness.kubectl([member]);
  const manifest = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'scaled', namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'scaled' } },
      template: { metadata: { labels: { app: 'scaled' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  });
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], manifest);
  assert.is(applied.code, 0, applied.stderr);
  assert.is((await kubectl(['scale', 'deployment/scaled', '--replicas=5'])).code, 0);
  const managers = async () =>
    JSON.parse((await kubectl(['get', 'deployment', 'scaled', '-o', 'json', '--show-managed-fields'])).stdout).metadata
      .managedFields;
  // managedfields.ScaleHandler.ToParent writes a scale entry in the workload's apiVersion and with no time.
  assert.equal(
    (await managers()).find((e: { subresource?: string }) => e.subresource === 'scale'),
    {
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      manager: 'kubectl',
      operation: 'Update',
      subresource: 'scale',
    },
  );
  const reapplied = await kubectl(['apply', '--server-side', '-f', '-'], manifest);
  assert.is.not(reapplied.code, 0);
  assert.match(
    reapplied.stderr,
    'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
  );

  const scaleScript = path.join(path.dirname(script), 'scale.py');
  writeFileSync(scaleScript, SCALE_APPLY_SCRIPT);
  const run = await runPython([scaleScript, kubeconfig]);
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout), {
    unforced: {
      status: 409,
      message:
        'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
    },
    forced: 7,
  });
  const owners = (await managers()).filter((e: { fieldsV1: { 'f:spec'?: object } }) =>
    Object.hasOwn(e.fieldsV1['f:spec'] ?? {}, 'f:replicas'),
  );
  assert.equal(
    owners.map((e: { manager: string; operation: string; subresource?: string }) => [
      e.manager,
      e.operation,
      e.subresource,
    ]),
    [['autoscaler', 'Apply', 'scale']],
  );
});

const DELETE_COLLECTION_SCRIPT = `
import json, sys
from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
owner = core.create_namespaced_config_map('default', {'metadata': {'name': 'batch-owner', 'labels': {'batch': 'one'}}})
core.create_namespaced_config_map('default', {'metadata': {'name': 'batch-child', 'ownerReferences': [
    {'apiVersion': 'v1', 'kind': 'ConfigMap', 'name': 'batch-owner', 'uid': owner.metadata.uid}]}})
core.delete_collection_namespaced_config_map('default', label_selector='batch=one', propagation_policy='Orphan')
remaining = core.list_namespaced_config_map('default').items
print(json.dumps({c.metadata.name: c.metadata.owner_references for c in remaining if c.metadata.name.startswith('batch-')}))
`;

test('a delete collection request deletes each object with its propagation policy: Orphan leaves the dependents', async () => {
  const deleteScript = path.join(path.dirname(script), 'deleteCollection.py');
  writeFileSync(deleteScript, DELETE_COLLECTION_SCRIPT);
  const run = await runPython([deleteScript, kubeconfig]);
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout), { 'batch-child': null });
});

const UNNAMED_SCRIPT = `
import json, sys
from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
core.create_namespaced_config_map('default', {'metadata': {'name': 'unnamed'}, 'data': {'a': 'b'}})
try:
    core.replace_namespaced_config_map('unnamed', 'default', {'metadata': {}, 'data': {'a': 'c'}})
    print(json.dumps('replaced'))
except ApiException as e:
    print(json.dumps({'code': e.status, 'message': json.loads(e.body)['message']}))
`;

test("an update must carry the object's name: a body without one is refused, as checkName refuses it", async () => {
  const unnamedScript = path.join(path.dirname(script), 'unnamed.py');
  writeFileSync(unnamedScript, UNNAMED_SCRIPT);
  const run = await runPython([unnamedScript, kubeconfig]);
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout), {
    code: 400,
    message: 'the name of the object () does not match the name on the URL (unnamed)',
  });
});

const AHEAD_SCRIPT = `
import json, sys
from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
ahead = str(int(core.list_namespaced_config_map('default').metadata.resource_version) + 1000)
out = {}
for name, options in [('cache', {}), ('exact', {'resource_version_match': 'Exact'}), ('paged', {'limit': 10})]:
    try:
        core.list_namespaced_config_map('default', resource_version=ahead, **options)
        out[name] = 'listed'
    except ApiException as e:
        body = json.loads(e.body)
        out[name] = {'code': e.status, 'retryAfter': e.headers.get('Retry-After'), 'reason': body['reason'],
                     'message': body['message'].replace(ahead, 'AHEAD'), 'details': body['details']}
print(json.dumps(out))
`;

test('a list at a resourceVersion the server has not reached is a 504 ResourceVersionTooLarge, retried after 1 s unless exact', async () => {
  const aheadScript = path.join(path.dirname(script), 'ahead.py');
  writeFileSync(aheadScript, AHEAD_SCRIPT);
  const run = await runPython([aheadScript, kubeconfig]);
  assert.is(run.code, 0, run.stderr);
  const current = String(member.store.resourceVersion);
  const tooLarge = (retryAfterSeconds: number) => ({
    code: 504,
    retryAfter: retryAfterSeconds ? String(retryAfterSeconds) : null,
    reason: 'Timeout',
    message: `Timeout: Too large resource version: AHEAD, current: ${current}`,
    details: {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    },
  });
  // The watch cache waits for the store to catch up, then asks for a retry; etcd has no such revision to read at.
  assert.equal(JSON.parse(run.stdout), { cache: tooLarge(1), exact: tooLarge(0), paged: tooLarge(0) });
});

const CREATE_TWICE_SCRIPT = `
import json, sys
from kubernetes import client, config, utils

api = client.ApiClient(configuration=config.load_kube_config(config_file=sys.argv[1]))
utils.create_from_yaml(api, sys.argv[2])
try:
    utils.create_from_yaml(api, sys.argv[2])
    print(json.dumps('created twice'))
except utils.FailToCreateError as e:
    print(json.dumps(str(e)))
`;

test("create_from_yaml reports a conflict with the server's body as kube-apiserver encodes it, newline included", async () => {
  const twiceScript = path.join(path.dirname(script), 'createTwice.py');
  writeFileSync(twiceScript, CREATE_TWICE_SCRIPT);
  const manifest = path.join(path.dirname(script), 'twice.yaml');
  writeFileSync(manifest, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: twice\nspec:\n  ports:\n  - port: 80\n');
  const run = await runPython([twiceScript, kubeconfig, manifest]);
  assert.is(run.code, 0, run.stderr);
  assert.is(
    JSON.parse(run.stdout),
    'Error from server (Conflict): {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"services \\"twice\\" already exists","reason":"AlreadyExists","details":{"name":"twice","kind":"services"},"code":409}\n',
  );
});

test.run();
