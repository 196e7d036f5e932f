import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClusterStatus, ObservedCluster, Taint } from '../../src/api/cluster.ts';
import { findRetriableBindings } from '../../src/outputs/pendingBindings.ts';
import type { WaitingFor } from '../../src/branches/rendered/outputIndex.ts';

const GUESTBOOK = 'webapp.my.domain/v1/Guestbook/default/guestbook-sample';
const WEB = 'apps/v1/Deployment/default/web';
const COMPLETE = { type: 'CompleteAPIEnablements', status: 'True' as const };
const READY = { type: 'Ready', status: 'True' as const };

function cluster(
  opts: {
    apis?: [string, string][];
    ready?: boolean;
    pods?: number;
    cpu?: string;
    taints?: Taint[];
    version?: string;
  } = {},
): ObservedCluster {
  const byGroup = new Map<string, { name: string; kind: string }[]>();
  for (const [gv, kind] of opts.apis ?? [['apps/v1', 'Deployment']])
    byGroup.set(gv, [...(byGroup.get(gv) ?? []), { name: `${kind.toLowerCase()}s`, kind }]);
  const status: ClusterStatus = {
    kubernetesVersion: opts.version ?? 'v1.32.0',
    apiEnablements: [...byGroup].map(([groupVersion, resources]) => ({ groupVersion, resources })),
    conditions: [{ ...READY, status: opts.ready === false ? 'False' : 'True' }, COMPLETE],
    resourceSummary: {
      allocatable: { pods: String(opts.pods ?? 110), cpu: opts.cpu ?? '4' },
      allocated: { pods: '0', cpu: '0' },
    },
  };
  return { status, ...(opts.taints ? { taints: opts.taints } : {}) };
}

const state = (entries: Record<string, ObservedCluster>) => new Map(Object.entries(entries));
const waiting = (entries: Record<string, WaitingFor>) => new Map(Object.entries(entries));
const withGuestbook: [string, string][] = [
  ['apps/v1', 'Deployment'],
  ['webapp.my.domain/v1', 'Guestbook'],
];

test('a cluster that starts serving the kind of a pending custom resource makes it due, naming the cluster', () => {
  const due = findRetriableBindings(
    waiting({ [GUESTBOOK]: {} }),
    state({ member1: cluster(), member2: cluster() }),
    state({ member1: cluster({ apis: withGuestbook }), member2: cluster() }),
  );
  assert.equal(
    [...due],
    [[GUESTBOOK, 'Guestbook default/guestbook-sample: member1 now serves webapp.my.domain/v1 Guestbook']],
  );
});

test('another kind becoming served, Ready flipping alone, a new version or node count: nothing is due', () => {
  const before = state({ member1: cluster(), member2: cluster() });
  const other: [string, string][] = [
    ['apps/v1', 'Deployment'],
    ['batch/v1', 'Job'],
  ];
  for (const after of [
    state({ member1: cluster({ apis: other }), member2: cluster() }),
    state({ member1: cluster({ ready: false }), member2: cluster() }),
    state({ member1: cluster({ version: 'v1.33.0' }), member2: cluster() }),
  ]) {
    assert.equal(findRetriableBindings(waiting({ [GUESTBOOK]: {} }), before, after).size, 0);
  }
});

test('a kind no longer listed is due too: the reasons of a failed result name every cluster that does not serve it', () => {
  const due = findRetriableBindings(
    waiting({ [GUESTBOOK]: {} }),
    state({ member1: cluster({ apis: withGuestbook }) }),
    state({ member1: cluster() }),
  );
  assert.match(due.get(GUESTBOOK)!, 'member1 no longer lists webapp.my.domain/v1 Guestbook (APIDisabled)');
});

test('a cluster whose status appears or disappears counts as serving everything without one', () => {
  const unknown = findRetriableBindings(waiting({ [GUESTBOOK]: {} }), state({}), state({ member1: cluster() }));
  assert.match(unknown.get(GUESTBOOK)!, 'member1 no longer lists');
  assert.equal(
    findRetriableBindings(waiting({ [GUESTBOOK]: {} }), state({}), state({ member1: cluster({ apis: withGuestbook }) }))
      .size,
    0,
  );
});

test("a taint removed (Ready back, uncordon) makes every pending binding due; a taint's time alone does not", () => {
  const notReady: Taint = {
    key: 'cluster.karmada.io/not-ready',
    effect: 'NoSchedule',
    timeAdded: '2026-01-01T00:00:00Z',
  };
  const due = findRetriableBindings(
    waiting({ [GUESTBOOK]: {}, [WEB]: { replicas: 2 } }),
    state({ member1: cluster({ taints: [notReady] }) }),
    state({ member1: cluster() }),
  );
  assert.equal([...due.keys()], [WEB, GUESTBOOK].sort());
  assert.match(due.get(WEB)!, 'the taints of member1 changed');
  const later = { ...notReady, timeAdded: '2026-01-01T00:05:00Z' };
  assert.equal(
    findRetriableBindings(
      waiting({ [WEB]: { replicas: 2 } }),
      state({ member1: cluster({ taints: [notReady] }) }),
      state({ member1: cluster({ taints: [later] }) }),
    ).size,
    0,
  );
});

test('capacity: a workload that could not be placed is due when a cluster can take another number of its replicas', () => {
  const web = waiting({ [WEB]: { replicas: 4, request: { cpu: '1' } } });
  const due = findRetriableBindings(
    web,
    state({ member1: cluster({ cpu: '2' }) }),
    state({ member1: cluster({ cpu: '8' }) }),
  );
  assert.match(due.get(WEB)!, 'member1 has room for 8 replica(s), 2 before (4 to place)');
  // More pods allowed, but CPU still decides: the same number of replicas, nothing to try.
  assert.equal(
    findRetriableBindings(
      web,
      state({ member1: cluster({ cpu: '2', pods: 110 }) }),
      state({ member1: cluster({ cpu: '2', pods: 200 }) }),
    ).size,
    0,
  );
});

test('capacity is ignored for bindings that do not wait on it (non-workloads)', () => {
  assert.equal(
    findRetriableBindings(
      waiting({ [GUESTBOOK]: {} }),
      state({ member1: cluster({ cpu: '2' }) }),
      state({ member1: cluster({ cpu: '8' }) }),
    ).size,
    0,
  );
});

test('nothing pending: nothing due, whatever changed', () => {
  assert.equal(
    findRetriableBindings(
      new Map(),
      state({ member1: cluster() }),
      state({ member1: cluster({ apis: withGuestbook }) }),
    ).size,
    0,
  );
});

test.run();
