// Karmada's end-to-end failover scenarios (test/e2e/suites/base/failover_test.go: "cluster failover testing" and
// "application failover testing"), replayed through the render: the Deployment and its PropagationPolicy are
// committed to a config repo, a cluster's NoExecute taint comes from the cluster state (status branch or Git's
// spec.taints), member health from status passes, and the clock is injected. Where Karmada's e2e reads the
// ResourceBinding and the member clusters, these read the rendered branch (binding and cluster folders).
// Events and statePreservation's injected labels are not part of these.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { at, notReadyCluster } from '../helpers/failoverState.ts';
import { clusterYaml, makeConfigRepoWith, RENDERED_REF, SOURCE_REF, type ConfigRepo } from '../helpers/fleet.ts';
import { liveNginx, NGINX } from '../views/helpers/fleetRepo.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

type Obj = Record<string, unknown>;
const MEMBERS = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'clusters/member3.yaml': clusterYaml('member3'),
};
const TARGETS = ['member1', 'member2'];
const BINDING = 'bindings/default/nginx-deployment.yaml';
const manifestPath = (cluster: string) => `clusters/${cluster}/default/deployment.apps_nginx.yaml`;

/** testhelper.NewDeployment: 3 replicas of nginx:1.19.0 (`image` to make it fail). */
const nginx = (image = 'nginx:1.19.0') =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image }] },
      },
    },
  });

/** The e2e policy: member1 and member2, spread over exactly one cluster, with `placement` and `spec` added. */
const policy = (placement: Obj, spec: Obj = {}) =>
  stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
      placement: {
        clusterAffinity: { clusterNames: TARGETS },
        spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1, minGroups: 1 }],
        ...placement,
      },
      ...spec,
    },
  });

interface Scenario {
  r: ConfigRepo;
  repo: GitRepo;
  sync(s: number, clusterStatus?: Map<string, ObservedCluster>): ReturnType<typeof syncRepo>;
  clusters(): string[];
  has(cluster: string): boolean;
}

async function scenario(files: Record<string, string>): Promise<Scenario> {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'nginx and its policy');
  const repo = await openRepo(r.dir);
  return {
    r,
    repo,
    sync: (s, clusterStatus) =>
      syncRepo(repo, {
        sourceRef: SOURCE_REF,
        outputRef: RENDERED_REF,
        now: at(s),
        ...(clusterStatus ? { clusterStatus } : {}),
      }),
    clusters: () =>
      ((parse(r.show('flotilla/rendered', BINDING)) as { spec: { clusters?: { name: string }[] } }).spec.clusters ?? [])
        .map((c) => c.name)
        .sort(),
    has: (cluster) => r.ls('flotilla/rendered').includes(manifestPath(cluster)),
  };
}

/** An apply pass of `cluster` that leaves nginx as `object`. */
async function applied(repo: GitRepo, s: number, cluster: string, object: Obj) {
  await writeStatus({
    repo,
    now: at(s),
    reports: [
      {
        cluster,
        delivery: {
          cluster,
          results: [{ ref: NGINX, action: 'configured', message: 'ok', live: object }],
          inventory: [NGINX],
          previousInventory: [NGINX],
          writes: 1,
          notes: [],
          durationMs: 0,
        },
      },
    ],
  });
}

/** A status pass of `cluster`: nginx read back as `object`. */
async function observe(repo: GitRepo, s: number, cluster: string, object: Obj) {
  await writeStatus({ repo, now: at(s), reports: [{ cluster, observed: [{ ref: NGINX, live: object }] }] });
}

const iso = (s: number) => new Date(at(s)().getTime()).toISOString().replace('.000', '');
const ready = (since: string): ObservedCluster => ({
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
});
/** The Cluster registration with Git's spec.taints holding `key`:NoExecute added at `timeAdded`. */
const taintedCluster = (name: string, key: string, timeAdded: string) =>
  clusterYaml(name, { taints: `\n  taints:\n    - {key: ${key}, effect: NoExecute, timeAdded: "${timeAdded}"}` });
const other = (cluster: string) => TARGETS.find((c) => c !== cluster)!;

// ---- cluster failover testing ------------------------------------------------------------------------------------

// "Cluster failover testing with nil failover behavior" / "deployment failover testing"
test('a cluster tainted not-ready:NoExecute past its 2 s toleration loses the one-cluster workload to the other; it stays there when the taint goes', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx(),
    'policies/nginx.yaml': policy({
      clusterTolerations: [
        { key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 },
      ],
    }),
  });
  await s.sync(0, new Map());
  const first = s.clusters();
  assert.is(first.length, 1, 'minGroups = maxGroups = 1');
  const [disabled] = first as [string];
  assert.ok(TARGETS.includes(disabled));
  const down = new Map([[disabled, notReadyCluster(iso(10))]]);
  await s.sync(11, down);
  assert.equal(s.clusters(), [disabled], 'tolerated for 2 s: nothing moves yet');
  await s.sync(13, down);
  assert.equal(s.clusters(), [other(disabled)], 'rescheduled to the other available cluster');
  assert.ok(s.has(other(disabled)));
  // Karmada's e2e sees the old copy go once the replacement is healthy; here the grace period ends the task.
  await s.sync(13 + 601, down);
  assert.not.ok(s.has(disabled), 'the copy on the failed cluster goes');
  // The taint is removed: the workload stays where it is, and does not come back to the recovered cluster.
  await s.sync(700, new Map([[disabled, ready(iso(690))]]));
  assert.equal(s.clusters(), [other(disabled)]);
  assert.not.ok(s.has(disabled), 'nothing on the recovered cluster');
});

// "Cluster failover testing with purgeMode gracefully" / "taint Cluster with NoExecute taint"
test('a fail-test:NoExecute taint tolerated for 3 s with purgeMode Gracefully moves the workload, keeps the old copy until the replacement is healthy', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx(),
    'policies/nginx.yaml': policy(
      {
        clusterTolerations: [{ key: 'fail-test', effect: 'NoExecute', operator: 'Exists', tolerationSeconds: 3 }],
      },
      { failover: { cluster: { purgeMode: 'Gracefully' } } },
    ),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  const next = other(disabled);
  s.r.commit({ [`clusters/${disabled}.yaml`]: taintedCluster(disabled, 'fail-test', iso(10)) }, 'taint fail-test');
  await s.sync(12);
  assert.equal(s.clusters(), [disabled], 'tolerated for 3 s from 15:00:10: not yet');
  await s.sync(14);
  assert.equal(s.clusters(), [next], 'rescheduled to the other available cluster');
  const binding = parse(s.r.show('flotilla/rendered', BINDING));
  assert.equal(
    binding.spec.gracefulEvictionTasks.map((t: Obj) => [t.fromCluster, t.reason, t.purgeMode ?? 'Gracefully']),
    [[disabled, 'TaintUntolerated', 'Gracefully']],
  );
  assert.ok(s.has(disabled), 'Gracefully: the old copy waits for the replacement');
  await applied(s.repo, 20, next, liveNginx(3, 3));
  await s.sync(21);
  assert.not.ok(s.has(disabled), 'replacement healthy: the old copy goes');
  // The taint is removed from the Cluster: the deployment is not back on it.
  s.r.commit({ [`clusters/${disabled}.yaml`]: clusterYaml(disabled) }, 'untaint');
  await s.sync(30);
  assert.equal(s.clusters(), [next]);
  assert.not.ok(s.has(disabled));
});

// "Cluster failover testing with purgeMode directly" / "taint Cluster with NoExecute taint" (the statePreservation
// label it also checks is not reproduced by Flotilla: README, application failover)
test('purgeMode Directly (with statePreservation rules) moves the workload and removes the old copy at once', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx('fake/nginx:1.19.0'),
    'policies/nginx.yaml': policy(
      {
        clusterTolerations: [{ key: 'fail-test', effect: 'NoExecute', operator: 'Exists', tolerationSeconds: 3 }],
      },
      {
        failover: {
          cluster: {
            purgeMode: 'Directly',
            statePreservation: { rules: [{ aliasLabelName: 'test-alias', jsonPath: '{.replicas}' }] },
          },
        },
      },
    ),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  s.r.commit({ [`clusters/${disabled}.yaml`]: taintedCluster(disabled, 'fail-test', iso(10)) }, 'taint fail-test');
  await s.sync(14);
  assert.equal(s.clusters(), [other(disabled)]);
  assert.ok(s.has(other(disabled)));
  assert.not.ok(s.has(disabled), 'Directly: the failed copy is gone at once');
});

// ---- application failover testing --------------------------------------------------------------------------------

const APP_FAILOVER = (application: Obj) => ({ propagateDeps: true, failover: { application } });
/** An OverridePolicy replacing the image registry with `fake` on `clusters`. */
const fakeRegistry = (clusters: string[]) =>
  stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
      overrideRules: [
        {
          targetCluster: { clusterNames: clusters },
          overriders: { imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'fake' }] },
        },
      ],
    },
  });
const imageOn = (s: Scenario, cluster: string) =>
  (
    parse(s.r.show('flotilla/rendered', manifestPath(cluster))) as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    }
  ).spec.template.spec.containers.map((c) => c.image);

// "Application failover testing with purgeMode gracefully" / "... when the application come back to healthy on the new cluster"
test('an application made unhealthy by an override fails over after tolerationSeconds; the old copy goes once healthy on the new cluster', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx(),
    'policies/nginx.yaml': policy(
      {},
      APP_FAILOVER({ decisionConditions: { tolerationSeconds: 30 }, purgeMode: 'Gracefully', gracePeriodSeconds: 30 }),
    ),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  const next = other(disabled);
  await applied(s.repo, 1, disabled, liveNginx(3, 3));
  s.r.commit({ 'policies/override.yaml': fakeRegistry([disabled]) }, 'make it unhealthy');
  await s.sync(2);
  assert.equal(imageOn(s, disabled), ['fake/nginx:1.19.0'], 'the override reaches the member');
  await observe(s.repo, 5, disabled, liveNginx(3, 0));
  assert.is((await s.sync(35)).reports.length, 0, 'Unhealthy for 30 s, not longer: nothing moves');
  await s.sync(36);
  assert.equal(s.clusters(), [next], 'rescheduled to the other available cluster');
  assert.equal(imageOn(s, next), ['nginx:1.19.0'], 'the override does not apply there');
  assert.ok(s.has(disabled), 'kept until the replacement is healthy');
  await applied(s.repo, 40, next, liveNginx(3, 3));
  await s.sync(41);
  assert.not.ok(s.has(disabled), 'the failed copy disappears');
  assert.equal(s.clusters(), [next]);
});

// "Application failover testing with purgeMode gracefully" / "... when the GracePeriodSeconds is reach out"
test('unhealthy everywhere: the old copy goes once gracePeriodSeconds pass after the failover, not before', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx(),
    'policies/nginx.yaml': policy(
      {},
      APP_FAILOVER({ decisionConditions: { tolerationSeconds: 30 }, purgeMode: 'Gracefully', gracePeriodSeconds: 10 }),
    ),
    'policies/override.yaml': fakeRegistry(['member1', 'member2', 'member3']),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  const next = other(disabled);
  assert.equal(imageOn(s, disabled), ['fake/nginx:1.19.0']);
  await applied(s.repo, 1, disabled, liveNginx(3, 0));
  await s.sync(32);
  assert.equal(s.clusters(), [next], 'failed over after 30 s');
  await applied(s.repo, 33, next, liveNginx(3, 0));
  await s.sync(42);
  assert.ok(s.has(disabled), '10 s after the failover: grace period not over');
  await s.sync(43);
  assert.not.ok(s.has(disabled), 'grace period (10 s) over: the copy goes, toleration + grace after it turned bad');
});

// "Application failover testing with purgeMode never" / "application failover with purgeMode never"
test('purgeMode Never: the unhealthy workload is rescheduled, and its copy stays on the failed cluster', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx('fake/nginx:1.19.0'),
    'policies/nginx.yaml': policy(
      {},
      APP_FAILOVER({ decisionConditions: { tolerationSeconds: 30 }, purgeMode: 'Never' }),
    ),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  assert.equal(imageOn(s, disabled), ['fake/nginx:1.19.0']);
  await applied(s.repo, 1, disabled, liveNginx(3, 0));
  await s.sync(32);
  assert.equal(s.clusters(), [other(disabled)]);
  await applied(s.repo, 40, other(disabled), liveNginx(3, 0));
  await s.sync(1000);
  assert.ok(s.has(disabled), 'present on the failed cluster still');
});

// "Application failover testing with purgeMode directly" / "Delete the old ones first, then create the new ones"
// (the statePreservation label is not reproduced)
test('purgeMode Directly: the unhealthy workload is rescheduled and its failed copy removed at once', async () => {
  const s = await scenario({
    'templates/nginx.yaml': nginx('fake/nginx:1.19.0'),
    'policies/nginx.yaml': policy(
      {},
      APP_FAILOVER({
        decisionConditions: { tolerationSeconds: 30 },
        purgeMode: 'Directly',
        statePreservation: { rules: [{ aliasLabelName: 'test-alias', jsonPath: '{.replicas}' }] },
      }),
    ),
  });
  await s.sync(0);
  const [disabled] = s.clusters() as [string];
  await applied(s.repo, 1, disabled, liveNginx(3, 0));
  await s.sync(32);
  assert.equal(s.clusters(), [other(disabled)]);
  assert.ok(s.has(other(disabled)));
  assert.not.ok(s.has(disabled), 'not found on the failed cluster');
});

test.run();
