// The independent-case harness contract: Karmada's scheduler cases (pkg/scheduler/core/assignment_test.go,
// generic_scheduler.go's error handling) as a config repo + a --cluster-status file + previous results
// written into OUT/bindings/ the way Karmada writes ResourceBindings, run through the real CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';
import { webDeployment } from './helpers/webByCapacity.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

interface HarnessCase {
  name: string;
  strategy: 'DynamicWeight' | 'Aggregated';
  /** Free CPU per cluster (= free replicas at cpu: 1 each); the placement names exactly these clusters. */
  free: Record<string, number>;
  /** Registered but not in the placement (a previous target that "disappeared" from the candidates). */
  others?: string[];
  previous: Record<string, number>;
  replicas: number;
  /** Expected spec.clusters; for failures, what Karmada leaves there. */
  want: Record<string, number>;
  fails?: { reason: 'Unschedulable' | 'NoClusterFit'; message: RegExp };
  /** How the previous binding is written: Karmada's own name, or a List in a file of another name. */
  bindingForm?: 'karmada' | 'list';
  /** In the placement but not registered under clusters/. */
  unregistered?: string[];
}

const CASES: HarnessCase[] = [
  {
    name: 'replica 12 -> 6, dynamic weighted 1:1:1 (scale-down by previous replicas)',
    strategy: 'DynamicWeight',
    free: { member1: 1, member2: 1, member3: 1 },
    previous: { member1: 2, member2: 4, member3: 6 },
    replicas: 6,
    want: { member1: 1, member2: 2, member3: 3 },
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 10:10:10 (scale-up splits only the new 12)',
    strategy: 'DynamicWeight',
    free: { member1: 10, member2: 10, member3: 10 },
    previous: { member1: 2, member2: 4, member3: 6 },
    replicas: 24,
    want: { member1: 6, member2: 8, member3: 10 },
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 1:1:1: not enough capacity, previous result kept',
    strategy: 'DynamicWeight',
    free: { member1: 1, member2: 1, member3: 1 },
    previous: { member1: 2, member2: 4, member3: 6 },
    replicas: 24,
    want: { member1: 2, member2: 4, member3: 6 },
    fails: { reason: 'Unschedulable', message: /available replicas 3 are not enough to schedule\./ },
  },
  {
    name: 'replica 12 -> 8, aggregated 100:100 (scale-down keeps the biggest)',
    strategy: 'Aggregated',
    free: { member1: 100, member2: 100 },
    previous: { member1: 4, member2: 8 },
    replicas: 8,
    want: { member2: 8 },
    bindingForm: 'list',
  },
  {
    name: 'replica 12 -> 24, aggregated 4:8:12, member2 disappeared and member4 appeared',
    strategy: 'Aggregated',
    free: { member1: 4, member3: 8, member4: 12 },
    others: ['member2'],
    previous: { member1: 4, member2: 8 },
    replicas: 24,
    want: { member1: 7, member3: 7, member4: 10 },
  },
  {
    name: 'replica 12, aggregated 6:8:10, no previous result',
    strategy: 'Aggregated',
    free: { member1: 6, member2: 8, member3: 10 },
    previous: {},
    replicas: 12,
    want: { member2: 5, member3: 7 },
  },
  {
    name: 'no cluster fits: the previous result is cleared',
    strategy: 'DynamicWeight',
    free: { member9: 10 },
    unregistered: ['member9'],
    others: ['member1', 'member2'],
    previous: { member1: 3, member2: 3 },
    replicas: 6,
    want: {},
    fails: {
      reason: 'NoClusterFit',
      message: /0\/2 clusters are available: 2 cluster\(s\) did not match the placement cluster affinity constraint\./,
    },
  },
];

const deployment = (replicas: number) => webDeployment(replicas, ', namespace: default');

const policy = (c: HarnessCase) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [${Object.keys(c.free).join(', ')}]}
    replicaScheduling:
      replicaSchedulingType: Divided
${c.strategy === 'Aggregated' ? '      replicaDivisionPreference: Aggregated' : '      replicaDivisionPreference: Weighted\n      weightPreference: {dynamicWeight: AvailableReplicas}'}
`;

const clusterStatus = (name: string, cpu: number) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
status:
  conditions: [{type: Ready, status: "True"}]
  apiEnablements: [{groupVersion: apps/v1, resources: [{name: deployments, kind: Deployment}]}]
  resourceSummary:
    allocatable: {cpu: "${cpu}", memory: 64Gi, pods: "110"}
    allocated: {cpu: "0", pods: "0"}
`;

/** A previous result as Karmada's scheduler leaves it: no Flotilla annotations, no applied placement. */
const karmadaBinding = (previous: Record<string, number>, replicas: number) => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: 'web-deployment', namespace: 'default' },
  spec: {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    replicas,
    clusters: Object.entries(previous).map(([name, r]) => ({ name, replicas: r })),
  },
});

for (const c of CASES) {
  test(`harness: ${c.name}`, () => {
    const r = makeConfigRepo();
    try {
      const names = [...Object.keys(c.free), ...(c.others ?? [])].filter((n) => !c.unregistered?.includes(n));
      const files: Record<string, string> = {
        'templates/web.yaml': deployment(c.replicas),
        'policies/web.yaml': policy(c),
      };
      for (const n of names) files[`clusters/${n}.yaml`] = clusterYaml(n);
      r.commit(files);
      const statusFile = path.join(r.dir, '..', 'status.yaml');
      writeFileSync(statusFile, names.map((n) => clusterStatus(n, c.free[n] ?? 0)).join('---\n'));
      const out = path.join(r.dir, '..', 'out');
      if (Object.keys(c.previous).length > 0) {
        const prevTotal = Object.values(c.previous).reduce((s, n) => s + n, 0);
        const b = karmadaBinding(c.previous, prevTotal);
        if (c.bindingForm === 'list') {
          mkdirSync(path.join(out, 'bindings'), { recursive: true });
          writeFileSync(
            path.join(out, 'bindings/from-karmada.yaml'),
            stringify({ apiVersion: 'v1', kind: 'List', items: [b] }),
          );
        } else {
          mkdirSync(path.join(out, 'bindings/default'), { recursive: true });
          writeFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), stringify(b));
        }
        // What the previous result ran, as a harness copying Karmada's Works would leave it.
        for (const cluster of Object.keys(c.previous)) {
          mkdirSync(path.join(out, 'clusters', cluster, 'default'), { recursive: true });
          writeFileSync(path.join(out, 'clusters', cluster, 'default/deployment.apps_web.yaml'), 'kind: Deployment\n');
        }
      }
      const res = spawnSync(
        process.execPath,
        [BIN, 'render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile],
        { encoding: 'utf8' },
      );
      const binding = parse(readFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), 'utf8'));
      const got = Object.fromEntries(
        (binding.spec.clusters as { name: string; replicas: number }[]).map((t) => [t.name, t.replicas]),
      );
      assert.equal(got, c.want, `spec.clusters\n${res.stderr}`);
      const scheduled = (
        binding.status.conditions as { type: string; status: string; reason: string; message: string }[]
      ).find((x) => x.type === 'Scheduled')!;
      for (const cluster of names) {
        const manifest = path.join(out, 'clusters', cluster, 'default/deployment.apps_web.yaml');
        if (c.want[cluster] === undefined) assert.not.ok(existsSync(manifest), `${cluster} must run nothing`);
        else assert.is(parse(readFileSync(manifest, 'utf8')).spec.replicas, c.want[cluster], `${cluster} replicas`);
      }
      if (c.fails) {
        assert.is(res.status, 1, 'a workload left unscheduled fails the render');
        assert.is(scheduled.status, 'False');
        assert.is(scheduled.reason, c.fails.reason);
        assert.match(scheduled.message, c.fails.message);
        assert.match(res.stderr, c.fails.reason === 'NoClusterFit' ? 'NO_CLUSTER_FITS' : 'UNSCHEDULABLE');
        assert.match(res.stderr, c.fails.message);
      } else {
        assert.is(res.status, 0, res.stderr);
        assert.is(scheduled.status, 'True');
      }
    } finally {
      r.cleanup();
    }
  });
}

test("harness: a second render reads back what the first wrote (Flotilla's own binding), and a scale-up is steady", () => {
  const r = makeConfigRepo();
  try {
    const c: HarnessCase = {
      name: '',
      strategy: 'DynamicWeight',
      free: { member1: 6, member2: 2 },
      previous: {},
      replicas: 4,
      want: {},
    };
    r.commit({
      'templates/web.yaml': deployment(4),
      'policies/web.yaml': policy(c),
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
    });
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    const out = path.join(r.dir, '..', 'out');
    const run = () =>
      spawnSync(process.execPath, [BIN, 'render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile], {
        encoding: 'utf8',
      });
    const clusters = () =>
      parse(readFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), 'utf8')).spec.clusters;
    writeFileSync(statusFile, `${clusterStatus('member1', 6)}---\n${clusterStatus('member2', 2)}`);
    assert.is(run().status, 0);
    assert.equal(clusters(), [
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 1 },
    ]);
    // Capacity flips; the same replicas stay where they are (steady), and 4 more follow the new free capacity 2:6.
    writeFileSync(statusFile, `${clusterStatus('member1', 2)}---\n${clusterStatus('member2', 6)}`);
    assert.is(run().status, 0);
    assert.equal(clusters(), [
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 1 },
    ]);
    r.commit({ 'templates/web.yaml': deployment(8) });
    assert.is(run().status, 0);
    assert.equal(clusters(), [
      { name: 'member1', replicas: 4 },
      { name: 'member2', replicas: 4 },
    ]);
  } finally {
    r.cleanup();
  }
});

test.run();
