// Application failover through the real daemon: `flotilla run` as its own process against two members, where
// member2 cannot run the application (an OverridePolicy asks for more CPU than its nodes have, so its pods stay
// Pending). (The same rules on a fixed clock: test/outputs/applicationFailover.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { spawnFlotilla, type Child } from '../helpers/spawnFlotilla.ts';
import { clusterRegistration, configMap, deployment, type Fleet, makeFleet } from '../helpers/fleet.ts';

const children: Child[] = [];
let fleet: Fleet | undefined;

test.after(async () => {
  await Promise.all(children.map((c) => c.kill9()));
  await fleet?.cleanup();
});

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: nginx}
  propagateDeps: true
  failover:
    application:
      decisionConditions:
        tolerationSeconds: 2
      purgeMode: Gracefully
      gracePeriodSeconds: 600
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`;

const SETTINGS_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: settings
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap, name: settings}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`;

const TOO_BIG_ON_MEMBER2 = `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: nginx-too-big-on-member2
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: nginx}
  overrideRules:
    - targetCluster: {clusterNames: [member2]}
      overriders:
        plaintext:
          - {path: /spec/template/spec/containers/0/resources/requests/cpu, operator: replace, value: "64"}
`;

test('flotilla run: an application that stays Unhealthy on member2 for longer than tolerationSeconds fails over to member1, and member2 loses its copy once member1 runs it all', async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 100 });
  const f = fleet;
  const source = f.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
      'templates/nginx.yaml': deployment('nginx', 2),
      'policies/nginx.yaml': POLICY,
      'policies/nginx-too-big-on-member2.yaml': TOO_BIG_ON_MEMBER2,
      // Something else on member2, so removing nginx's copy there is no prune of everything (which the guard holds).
      'templates/settings.yaml': configMap('settings', 'blue'),
      'policies/settings.yaml': SETTINGS_POLICY,
    },
    'nginx 1:1 with application failover after 2 s; member2 cannot schedule its pods',
  );
  const run = spawnFlotilla([
    'run',
    '--repo',
    f.bare,
    '--credentials-dir',
    f.credentials,
    '--listen',
    'off',
    '--cluster-status-update-frequency',
    '1s',
  ]);
  children.push(run);
  const show = (rev: string, file: string) => {
    try {
      return f.git(f.bare, 'show', `${rev}:${file}`);
    } catch {
      return undefined;
    }
  };
  const renderedMessages = () => f.git(f.bare, 'log', '--format=%B%x00', 'flotilla/rendered');
  const renderedFiles = () => f.git(f.bare, 'ls-tree', '-r', '--name-only', 'flotilla/rendered').split('\n');
  const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
  const [member1, member2] = f.members as [(typeof f.members)[0], (typeof f.members)[0]];
  const deployOn = (m: typeof member1) =>
    m.store.get('apps/deployments', 'default', 'nginx') as
      | { spec: { replicas: number }; status?: { readyReplicas?: number } }
      | undefined;
  try {
    await run.events.next(
      'the first pass of the source commit',
      (e) => e.step === 'pass' && e.sourceCommit === source && !e.error,
      30_000,
      true,
    );
    const unhealthy = await waitFor(
      'nginx Unhealthy on member2, with the moment it turned so',
      () => {
        const s = parse(show('flotilla/status', 'templates/default/deployment.apps_nginx.yaml') ?? 'null') as {
          aggregatedStatus?: { clusterName: string; health: string; unhealthySince?: string }[];
        } | null;
        return s?.aggregatedStatus?.find((a) => a.clusterName === 'member2' && a.health === 'Unhealthy');
      },
      20_000,
      100,
    );
    assert.match(unhealthy.unhealthySince ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await waitFor(
      'the failover commit after the 2 s toleration',
      () =>
        /^failover: Deployment default\/nginx Unhealthy on member2 since \S+, longer than failover\.application tolerates \(2s\): 1 replica member2→member1$/m.exec(
          renderedMessages(),
        ),
      20_000,
      100,
    );
    await waitFor(
      "member1 runs both replicas, and member2's copy leaves the rendered branch and the member",
      () => {
        const d = deployOn(member1);
        return (
          d?.spec.replicas === 2 &&
          d.status?.readyReplicas === 2 &&
          !renderedFiles().includes(NGINX_M2) &&
          deployOn(member2) === undefined
        );
      },
      20_000,
      100,
    );
    assert.match(
      renderedMessages(),
      /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1/m,
    );
    assert.ok(
      run.events.entries.some(
        (e) => e.step === 'pass' && (e.reasons as string[] | undefined)?.includes('application-failover'),
      ),
      'a pass was due for it by time alone',
    );
    assert.not.ok(
      run.events.entries.some((e) => e.step === 'pass' && e.error),
      `no pass failed: ${JSON.stringify(run.events.entries.filter((e) => e.error).slice(0, 3))}`,
    );
  } finally {
    assert.is(await run.stop(), 0, run.stderr());
  }
});

test.run();
