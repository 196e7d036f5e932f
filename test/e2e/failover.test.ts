// Failover end to end: two emulated members, the real reconcile pass (render → apply → status), a NoExecute
// ClusterTaintPolicy with a 60 s toleration, member2 refusing connections, and a fake clock that never sleeps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import type { Member } from '../../src/members/startMember.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import { kubectl, Scratch, waitFor } from '../deliveries/helpers/e2e.ts';
import { clusterYaml, makeConfigRepo, nginxPolicy, sample, type ConfigRepo } from '../helpers/fleet.ts';

const scratch = new Scratch();
let members: Member[];
let kubes: Map<string, KubeTarget>;
let kubeconfig: string;
let cacheDir: string;
let config: ConfigRepo;
let repo: GitRepo;
let clock = Date.parse('2026-11-29T15:00:00Z');
const tick = (seconds: number) => {
  clock += seconds * 1000;
};

const TAINT_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: not-ready-evicts
spec:
  addOnConditions:
    - conditionType: Ready
      operator: In
      statusValues: ["False", "Unknown"]
  removeOnConditions:
    - conditionType: Ready
      operator: In
      statusValues: ["True"]
  taints:
    - key: cluster.karmada.io/not-ready
      effect: NoExecute
`;
const SETTINGS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  color: blue
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: settings
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      name: settings
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;

const logs: Record<string, unknown>[] = [];
const pass = () =>
  reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: kubes,
    render: true,
    log: (line) => logs.push(line),
    now: () => new Date(clock),
  });
const lastMessage = () => config.git('log', '-1', '--format=%B', 'flotilla/rendered');
const renderedFiles = () => config.ls('flotilla/rendered');
const statusOf = (cluster: string) => parse(config.show('flotilla/status', `clusters/${cluster}.yaml`));
// Conditions keep the places Karmada's status controller gives them: Ready is found by its type.
interface Condition {
  type: string;
  status: string;
  reason: string;
  lastTransitionTime: string;
}
const readyOf = (file: { status: { conditions: Condition[] } }) =>
  file.status.conditions.find((c) => c.type === 'Ready')!;
const get = async (cluster: string, what: string[]) => {
  const res = await kubectl(kubeconfig, cacheDir, ['--context', cluster, 'get', ...what, '-o', 'json']);
  return res.code === 0 ? JSON.parse(res.stdout) : undefined;
};
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';

test.before(async () => {
  members = await Promise.all(['member1', 'member2'].map((n) => scratch.member(n)));
  kubeconfig = scratch.kubeconfig(members);
  cacheDir = scratch.dir('flotilla-kubectl-');
  kubes = await connectKubeconfig(kubeconfig, { timeoutMs: 2_000 });
  config = makeConfigRepo();
  config.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/not-ready-evicts.yaml': TAINT_POLICY,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': nginxPolicy({ tolerationSeconds: 60 }),
      'templates/settings.yaml': SETTINGS,
    },
    'nginx 1:1 with a 60 s NoExecute toleration; settings everywhere',
  );
  repo = await openRepo(config.dir);
});

test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await scratch.cleanup();
  config?.cleanup();
});

test('member2 stops: after the toleration its replica moves to member1, it keeps its objects until then, and gets back what is still wanted', async () => {
  await waitFor('nginx healthy on both members', async () => {
    tick(1);
    await pass();
    const s = parse(config.show('flotilla/status', 'templates/default/deployment.apps_nginx.yaml'));
    return (
      s.aggregatedStatus.length === 2 && s.aggregatedStatus.every((i: { health: string }) => i.health === 'Healthy')
    );
  });
  const settingsUid = (await get('member2', ['configmap', 'settings'])).metadata.uid;

  await members[1]!.faults.set({ refuse: true });
  tick(1);
  logs.length = 0;
  await pass();
  const why = logs.find((l) => l.step === 'status' && l.cluster === 'member2');
  assert.match(
    String(why?.unreachable),
    /^cluster member2 did not answer/,
    'the log says why the member is not reachable',
  );
  assert.is(readyOf(statusOf('member2')).status, 'True', 'one failed probe: Ready is damped');
  assert.match(statusOf('member2').metadata.annotations['flotilla.io/ready-observed'], /^False since /);

  tick(31);
  await pass();
  const down = statusOf('member2');
  assert.is(readyOf(down).status, 'False');
  assert.is(readyOf(down).reason, 'ClusterNotReachable');
  const since = readyOf(down).lastTransitionTime;
  assert.equal(
    down.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`),
    ['cluster.karmada.io/not-ready:NoSchedule', 'cluster.karmada.io/not-ready:NoExecute'],
  );

  tick(1);
  await pass();
  assert.match(
    lastMessage(),
    /^failover: member2 NotReady since .* not tolerated: ConfigMap default\/settings member2→member1$/m,
    'no toleration: the ConfigMap is evicted at once',
  );
  assert.ok(renderedFiles().includes(NGINX_M2), 'nginx is tolerated for 60 s');

  tick(60);
  await pass();
  assert.match(
    lastMessage(),
    new RegExp(
      `^failover: member2 NotReady since ${since} \\(ClusterNotReachable\\), taint cluster\\.karmada\\.io/not-ready:NoExecute tolerated for 60s from ${since}, expired: Deployment default/nginx 1 replica member2→member1$`,
      'm',
    ),
  );
  assert.ok(renderedFiles().includes(NGINX_M2), 'member2 keeps its copy until member1 runs both replicas');

  await waitFor('member1 healthy at 2 replicas ends the graceful eviction', async () => {
    tick(1);
    await pass();
    return !renderedFiles().includes(NGINX_M2);
  });
  assert.match(
    lastMessage(),
    /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1/m,
  );
  assert.is((await get('member1', ['deployment', 'nginx'])).spec.replicas, 2);

  // member2 comes back. Still NotReady for the success threshold: nothing may be deleted from it meanwhile.
  await members[1]!.faults.set({ refuse: false });
  tick(1);
  await pass();
  assert.is(readyOf(statusOf('member2')).status, 'False', 'back for 1 s: still NotReady');
  assert.ok(await get('member2', ['deployment', 'nginx']), 'not pruned while NotReady');
  assert.is((await get('member2', ['configmap', 'settings'])).metadata.uid, settingsUid);

  tick(31);
  await pass();
  assert.is(readyOf(statusOf('member2')).status, 'True');
  assert.is(statusOf('member2').spec, undefined, 'the taints are gone');
  tick(1);
  await pass();
  assert.match(lastMessage(), /^Cluster state: every cluster Ready and untainted/);
  // The Duplicated ConfigMap is wanted there again and was never deleted; the Divided nginx stays on member1 (Karmada
  // keeps the steady result), so member2's stale copy is pruned now that it is Ready.
  assert.ok(renderedFiles().includes('clusters/member2/default/configmap_settings.yaml'));
  assert.is(
    (await get('member2', ['configmap', 'settings'])).metadata.uid,
    settingsUid,
    'the same object: never deleted and re-created',
  );
  assert.is(await get('member2', ['deployment', 'nginx']), undefined);
  assert.is((await get('member1', ['deployment', 'nginx'])).spec.replicas, 2);
});

test.run();
