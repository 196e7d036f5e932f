// A CrossCluster MultiClusterService's conditions as Karmada's controllers set them, from what Git says: the claim of
// its Service and what each consumer's inventory holds of the slices dispatched to it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { MultiClusterService } from '../../src/api/multiClusterService.ts';
import {
  multiClusterServiceStatusEdits,
  type MultiClusterServiceFacts,
} from '../../src/statuses/multiClusterServiceConditions.ts';

const PATH = 'multiclusterservices/shop/web.yaml';
const mcs: MultiClusterService = {
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { namespace: 'shop', name: 'web' },
  spec: { types: ['CrossCluster'] },
};
const facts = (serviceClaimed: boolean, expected: string[], held: string[]): MultiClusterServiceFacts => ({
  mcs,
  serviceClaimed,
  dispatch: [
    { consumer: 'member2', expected, held: new Set(held) },
    { consumer: 'member1', expected: [], held: new Set() },
  ],
});
const at = (iso: string) => new Date(iso);
const conditions = (text: string | null | undefined) =>
  (
    parse(text!) as {
      status: { conditions: { type: string; status: string; reason: string; lastTransitionTime: string }[] };
    }
  ).status.conditions.map((c) => `${c.type}=${c.status} ${c.reason} ${c.lastTransitionTime}`);

test('claimed and every dispatched slice held: ServiceApplied and EndpointSliceDispatched True, with one message line', () => {
  const out = multiClusterServiceStatusEdits(
    [facts(true, ['member1-web-a'], ['member1-web-a', 'other'])],
    new Map(),
    at('2026-12-01T10:00:00.123Z'),
  );
  assert.equal(conditions(out.edits.get(PATH)), [
    'ServiceApplied=True ServiceAppliedSucceed 2026-12-01T10:00:00Z',
    'EndpointSliceDispatched=True EndpointSliceDispatchedSucceed 2026-12-01T10:00:00Z',
  ]);
  assert.equal(out.lines, [
    'MultiClusterService shop/web: ServiceApplied=True (ServiceAppliedSucceed), EndpointSliceDispatched=True (EndpointSliceDispatchedSucceed)',
  ]);
});

test('nothing to dispatch yet, or slices still on their way: EndpointSliceDispatched is not set, or stays as it was', () => {
  const none = multiClusterServiceStatusEdits([facts(true, [], [])], new Map(), at('2026-12-01T10:00:00Z'));
  assert.equal(conditions(none.edits.get(PATH)), ['ServiceApplied=True ServiceAppliedSucceed 2026-12-01T10:00:00Z']);
  const dispatched = multiClusterServiceStatusEdits(
    [facts(true, ['member1-web-a'], ['member1-web-a'])],
    new Map(),
    at('2026-12-01T10:00:00Z'),
  );
  const existing = new Map([[PATH, dispatched.edits.get(PATH)!]]);
  // A new slice member2 does not hold yet: no change, no commit.
  const pending = multiClusterServiceStatusEdits(
    [facts(true, ['member1-web-a', 'member1-web-b'], ['member1-web-a'])],
    existing,
    at('2026-12-01T10:05:00Z'),
  );
  assert.equal(pending.edits.size, 0);
  assert.equal(pending.lines, []);
});

test('a Service no longer claimed turns ServiceApplied False, moving only its transition time; a gone MultiClusterService loses its file', () => {
  const first = multiClusterServiceStatusEdits(
    [facts(true, ['member1-web-a'], ['member1-web-a'])],
    new Map(),
    at('2026-12-01T10:00:00Z'),
  );
  const existing = new Map([[PATH, first.edits.get(PATH)!]]);
  const lost = multiClusterServiceStatusEdits(
    [facts(false, ['member1-web-a'], ['member1-web-a'])],
    existing,
    at('2026-12-01T11:00:00Z'),
  );
  assert.equal(conditions(lost.edits.get(PATH)), [
    'ServiceApplied=False ServiceAppliedFailed 2026-12-01T11:00:00Z',
    'EndpointSliceDispatched=True EndpointSliceDispatchedSucceed 2026-12-01T10:00:00Z',
  ]);
  assert.match(lost.edits.get(PATH)!, 'message: services "web" not found');
  const gone = multiClusterServiceStatusEdits([], existing, at('2026-12-01T12:00:00Z'));
  assert.equal([...gone.edits], [[PATH, null]]);
  assert.equal(gone.lines, [
    'MultiClusterService shop/web: status removed (no CrossCluster MultiClusterService any more)',
  ]);
});

test.run();
