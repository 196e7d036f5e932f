// Spread-constraint utilities, on Karmada's own cases:
// pkg/scheduler/core/spreadconstraint/util_test.go (TestIsSpreadConstraintExisted, Test_sortClusters).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { selectBestClusters, sortCandidates } from '../../src/assignments/selectClusters.ts';
import { candidate } from './helpers.ts';

// ---- TestIsSpreadConstraintExisted: whether a constraint names a field decides how clusters are selected ----

const three = [candidate('a', 10, { score: 30 }), candidate('b', 10, { score: 20 }), candidate('c', 10, { score: 10 })];

test('a cluster spread constraint listed beside a zone one is found and selects the clusters', () => {
  const placement: Placement = {
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }, { spreadByField: 'zone' }],
  };
  const got = selectBestClusters(placement, three, 5);
  assert.ok(got.ok);
  if (got.ok)
    assert.equal(
      got.value.map((c) => c.name),
      ['a', 'b'],
    );
});

test('without a cluster or region spread constraint (zone only) no constraint can select clusters', () => {
  const placement: Placement = { spreadConstraints: [{ spreadByField: 'zone', minGroups: 1, maxGroups: 2 }] };
  const got = selectBestClusters(placement, three, 5);
  assert.is(got.ok, false);
  if (!got.ok) assert.is(got.message, 'just support cluster and region spread constraint');
});

// ---- Test_sortClusters ----

const names = (list: { name: string }[]) => list.map((c) => c.name);

test('candidates with different scores sort by score, highest first', () => {
  const sorted = sortCandidates([candidate('b', 0, { score: 2 }), candidate('a', 0, { score: 1 })]);
  assert.equal(names(sorted), ['b', 'a']);
});

test('candidates with the same score sort by name when that agrees with their capacity', () => {
  // Karmada sorts these two by name without the capacity comparison; with it (as the scheduler sorts) a still leads.
  const sorted = sortCandidates([
    candidate('b', 5, { score: 1, availableReplicas: 5 }),
    candidate('a', 10, { score: 1, availableReplicas: 10 }),
  ]);
  assert.equal(names(sorted), ['a', 'b']);
  const equal = sortCandidates([
    candidate('b', 5, { score: 1, availableReplicas: 5 }),
    candidate('a', 5, { score: 1, availableReplicas: 5 }),
  ]);
  assert.equal(names(equal), ['a', 'b']);
});

test('candidates with the same score sort by available replicas, most first, before their names', () => {
  const sorted = sortCandidates([
    candidate('a', 5, { score: 1, availableReplicas: 5 }),
    candidate('b', 10, { score: 1, availableReplicas: 10 }),
  ]);
  assert.equal(names(sorted), ['b', 'a']);
});

test('the overflow tier comes before the score', () => {
  const sorted = sortCandidates([
    candidate('a', 10, { score: 100, overflowOrder: 1 }),
    candidate('b', 1, { score: 0, overflowOrder: 0 }),
  ]);
  assert.equal(names(sorted), ['b', 'a']);
});

test.run();
