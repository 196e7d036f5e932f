// What the reconciler plans on after a pass, derived from its results (pure): the objects a member-writing pass
// touched (catch-up follows them), what a status pass found missing or unhealthy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ObjectRef } from '../../src/api/kinds.ts';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyAction } from '../../src/deliveries/types.ts';
import { buildPassFacts, objectKey } from '../../src/passes/buildPassFacts.ts';
import type { ReconcileResult, StatusPassResult } from '../../src/reconcile.ts';

const ref = (name: string): ObjectRef => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name });
const delivery = (cluster: string, actions: [string, ApplyAction][]): ClusterDelivery => ({
  cluster,
  results: actions.map(([name, action]) => ({ ref: ref(name), action, message: '' })),
  inventory: [],
  writes: actions.length,
  notes: [],
  previousInventory: [],
  durationMs: 1,
});
const full = (clusters: ClusterDelivery[]): ReconcileResult => ({
  rendered: [],
  delivery: {
    renderedCommit: 'r'.repeat(40),
    sourceCommit: 's'.repeat(40),
    clusters: new Map(clusters.map((c) => [c.cluster, c])),
  },
  statusCommit: 'c'.repeat(40),
  statusPaths: ['templates/default/deployment.apps_a.yaml'],
  writes: clusters.length,
  reports: [],
});

test('a full pass touched what it created, configured or repaired after drift; unchanged, pruned and failed objects are not followed', () => {
  const facts = buildPassFacts(
    'full',
    { startedAt: 5, renderedKey: 'k' },
    full([
      delivery('member1', [
        ['a', 'created'],
        ['b', 'configured'],
        ['c', 'drift-repaired'],
        ['d', 'unchanged'],
      ]),
      delivery('member2', [
        ['e', 'pruned'],
        ['f', 'failed'],
        ['g', 'drift-repaired'],
      ]),
    ]),
  );
  assert.equal(facts, {
    kind: 'full',
    ok: true,
    writes: 2,
    wroteStatus: true,
    statusPaths: ['templates/default/deployment.apps_a.yaml'],
    startedAt: 5,
    renderedKey: 'k',
    touched: [
      objectKey('member1', ref('a')),
      objectKey('member1', ref('b')),
      objectKey('member1', ref('c')),
      objectKey('member2', ref('g')),
    ],
  });
});

test('a status pass reports what is missing (drift) and not yet healthy, by member and object; a failed pass only when it started', () => {
  const result: StatusPassResult = {
    statusCommit: null,
    changedPaths: [],
    reports: [],
    missing: [{ cluster: 'member2', ref: ref('a') }],
    unhealthy: [{ cluster: 'member1', ref: ref('b') }],
    unread: 0,
  };
  assert.equal(buildPassFacts('status', { startedAt: 7, probed: new Set(['member1']) }, result), {
    kind: 'status',
    ok: true,
    startedAt: 7,
    probed: new Set(['member1']),
    missing: [objectKey('member2', ref('a'))],
    unhealthy: [objectKey('member1', ref('b'))],
    wroteStatus: false,
    statusPaths: [],
  });
  assert.equal(buildPassFacts('status', { startedAt: 7 }, undefined), { kind: 'status', ok: false, startedAt: 7 });
  assert.ok(
    objectKey('member1', ref('a')) !== objectKey('member2', ref('a')),
    'the same object on two members is two keys',
  );
});

test.run();
