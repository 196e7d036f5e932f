// Ready=Unknown from a missing heartbeat, with an injected clock: the Pull agent's status writes carry a heartbeat
// (a new one at most every 20 s), and the reconciler's status stage marks a Pull cluster Unknown 40 s after the last.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { Cluster } from '../../src/api/cluster.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import type { ClusterStatusFile } from '../../src/branches/status/statusFiles.ts';
import {
  HEARTBEAT_INTERVAL_MS,
  agentClusters,
  markMissingHeartbeats,
} from '../../src/statuses/markMissingHeartbeats.ts';
import { HEARTBEAT_ANNOTATION } from '../../src/branches/status/statusFiles.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

const T0 = Date.parse('2026-11-29T15:00:00Z');
const at = (s: number) => () => new Date(T0 + s * 1000);
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const ready = {
  cluster: 'member3',
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'True' as const,
        reason: 'ClusterReady',
        message: 'cluster is healthy and ready to accept workloads',
      },
    ],
  },
};
/** What runAgentPass writes for its cluster each pass. */
const agentWrites = (repo: GitRepo, s: number) =>
  writeStatus({ repo, reports: [ready], now: at(s), clusterOptions: { heartbeatMs: HEARTBEAT_INTERVAL_MS } });
const member3 = (r: ConfigRepo) => parse(r.show('flotilla/status', 'clusters/member3.yaml')) as ClusterStatusFile;
const readyOf = (f: ClusterStatusFile) => f.status!.conditions!.find((c) => c.type === 'Ready')!;

/** member1 Push, member3 Pull; nothing to place, so the reconciler only renders and writes status. */
function pullRepo(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member3.yaml': clusterYaml('member3').replace('syncMode: Push', 'syncMode: Pull'),
    },
    'member1 Push, member3 Pull',
  );
  return r;
}

const reconcile = (repo: GitRepo, s: number) =>
  reconcileOnce({
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: new Map(),
    render: true,
    log: () => {},
    now: at(s),
  });

test('agent writes → Ready True; 41 s without → Unknown with the unreachable taint; the agent back → True at once', async () => {
  const r = pullRepo();
  const repo = await openRepo(r.dir);
  assert.ok((await agentWrites(repo, 0)).commit);
  assert.is(readyOf(member3(r)).status, 'True');
  assert.is(member3(r).metadata.annotations?.[HEARTBEAT_ANNOTATION], '2026-11-29T15:00:00Z');

  assert.is((await agentWrites(repo, 10)).commit, null, 'nothing changed and the heartbeat is 10 s old: no commit');
  assert.ok((await agentWrites(repo, 25)).commit, 'a heartbeat 25 s old is renewed');
  assert.is(member3(r).metadata.annotations?.[HEARTBEAT_ANNOTATION], '2026-11-29T15:00:25Z');

  await reconcile(repo, 25 + 40);
  assert.is(readyOf(member3(r)).status, 'True', 'exactly 40 s: still inside the grace period');

  await reconcile(repo, 25 + 41);
  const stale = member3(r);
  // cluster_controller.go tryUpdateClusterHealth's reason and message; the last heartbeat stays in its annotation.
  assert.equal(readyOf(stale), {
    type: 'Ready',
    status: 'Unknown',
    reason: 'ClusterStatusUnknown',
    message: 'Cluster status controller stopped posting cluster status.',
    lastTransitionTime: '2026-11-29T15:01:06Z',
  });
  assert.is(stale.metadata.annotations?.[HEARTBEAT_ANNOTATION], '2026-11-29T15:00:25Z');
  assert.equal(stale.spec?.taints, [
    { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-11-29T15:01:06Z' },
  ]);
  const before = r.git('rev-parse', 'flotilla/status');
  await reconcile(repo, 25 + 90);
  assert.is(r.git('rev-parse', 'flotilla/status'), before, 'marked once: later passes commit nothing');
  // The scheduler sees it: the unreachable taint changes the cluster state, so the last commit is rendered again.
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Cluster-State: [0-9a-f]{16}/);

  assert.ok((await agentWrites(repo, 200)).commit);
  const back = member3(r);
  assert.is(readyOf(back).status, 'True', 'no 30 s damping: the Unknown was never observed by a prober');
  assert.is(readyOf(back).lastTransitionTime, '2026-11-29T15:03:20Z');
  assert.is(back.spec, undefined, 'the unreachable taint is gone');
  assert.is(back.metadata.annotations?.[HEARTBEAT_ANNOTATION], '2026-11-29T15:03:20Z');
});

test("a Pull cluster no agent ever reported on: first seen, then Ready=Unknown ClusterStatusNeverUpdated once Karmada's 60 s startup grace runs out", async () => {
  const r = pullRepo();
  const repo = await openRepo(r.dir);
  await reconcile(repo, 0);
  assert.equal(member3(r), {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member3', creationTimestamp: '2026-11-29T15:00:00Z' },
  });
  assert.not.match(
    r.git('log', '-1', '--format=%B', 'flotilla/rendered'),
    'Cluster-State',
    'first sight changes no placement',
  );
  const seen = r.git('rev-parse', 'flotilla/status');
  await reconcile(repo, 60);
  assert.is(r.git('rev-parse', 'flotilla/status'), seen, 'exactly 60 s: still inside the startup grace period');

  await reconcile(repo, 61);
  const never = member3(r);
  assert.equal(never.metadata, { name: 'member3', creationTimestamp: '2026-11-29T15:00:00Z' });
  assert.equal(readyOf(never), {
    type: 'Ready',
    status: 'Unknown',
    reason: 'ClusterStatusNeverUpdated',
    message: 'Cluster status controller never posted cluster status.',
    lastTransitionTime: '2026-11-29T15:01:01Z',
  });
  assert.equal(never.spec?.taints, [
    { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-11-29T15:01:01Z' },
  ]);
  const marked = r.git('rev-parse', 'flotilla/status');
  await reconcile(repo, 120);
  assert.is(r.git('rev-parse', 'flotilla/status'), marked, 'marked once');
  // The next pass's render sees the taint: new placements avoid the cluster.
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Cluster-State: [0-9a-f]{16}/);

  assert.ok((await agentWrites(repo, 130)).commit);
  assert.is(readyOf(member3(r)).status, 'True', 'the agent reports at last');
  assert.is(member3(r).spec, undefined, 'the unreachable taint is gone');
});

// cluster_controller.go tryUpdateClusterHealth turns the Ready condition it finds Unknown where it stands.
test('a stopped heartbeat turns Ready Unknown where it stands among the conditions', () => {
  const text = [
    'apiVersion: cluster.karmada.io/v1alpha1',
    'kind: Cluster',
    'metadata:',
    '  name: m',
    '  annotations:',
    `    ${HEARTBEAT_ANNOTATION}: "2026-11-29T15:00:00Z"`,
    'status:',
    '  conditions:',
    '    - type: CompleteAPIEnablements',
    '      status: "True"',
    '    - type: Ready',
    '      status: "True"',
    '',
  ].join('\n');
  const out = markMissingHeartbeats(new Map([['clusters/m.yaml', text]]), ['m'], new Date(T0 + 3600_000));
  const file = parse(out.get('clusters/m.yaml')!) as ClusterStatusFile;
  assert.equal(
    file.status!.conditions!.map((c) => [c.type, c.status]),
    [
      ['CompleteAPIEnablements', 'True'],
      ['Ready', 'Unknown'],
    ],
  );
});

test('markMissingHeartbeats records first sight of a cluster without a file, leaves alone one without a heartbeat, and Push clusters are not watched', () => {
  const file = (annotations?: Record<string, string>) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n${
      annotations
        ? `  annotations:\n${Object.entries(annotations)
            .map(([k, v]) => `    ${k}: "${v}"`)
            .join('\n')}\n`
        : ''
    }status:\n  conditions:\n    - type: Ready\n      status: "True"\n`;
  const now = new Date(T0 + 3600_000);
  assert.equal(
    [...markMissingHeartbeats(new Map([['clusters/m.yaml', file()]]), ['m', 'absent'], now)],
    [
      [
        'clusters/absent.yaml',
        `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: absent\n  creationTimestamp: "2026-11-29T16:00:00Z"\n`,
      ],
    ],
  );
  assert.equal(
    [
      ...markMissingHeartbeats(
        new Map([['clusters/m.yaml', file({ [HEARTBEAT_ANNOTATION]: '2026-11-29T15:00:00Z' })]]),
        ['m'],
        now,
      ).keys(),
    ],
    ['clusters/m.yaml'],
  );
  const clusters = new Map<string, Cluster>([
    [
      'a',
      {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'a' },
        spec: { syncMode: 'Pull' },
      },
    ],
    [
      'b',
      {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'b' },
        spec: { syncMode: 'Push' },
      },
    ],
    [
      'c',
      {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'c' },
        spec: { syncMode: 'Pull' },
      },
    ],
  ]);
  assert.equal(
    agentClusters(clusters, ['c']),
    ['a'],
    'a Pull cluster this writer reports on itself is probed, not watched',
  );
});

test.run();
