import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isLive, observePeers, planClaims, type ClaimInput } from '../../src/shards/planClaims.ts';
import type { LeaseObject } from '../../src/leases/leaseRecord.ts';

const none = new Set<string>();
const input = (over: Partial<ClaimInput>): ClaimInput => ({
  me: 'a',
  state: { claims: none, confirmed: none },
  published: none,
  others: new Map(),
  desired: new Map(),
  busy: none,
  ...over,
});

test('a cluster is claimed, then confirmed only after the claim was published and read back with no rival', () => {
  const desired = new Map([['m1', 'a']]);
  const first = planClaims(input({ desired }));
  assert.equal(first.claimed, ['m1']);
  assert.equal([...first.state.confirmed], [], 'not usable before it is published');
  const unpublished = planClaims(input({ desired, state: first.state }));
  assert.equal([...unpublished.state.confirmed], [], 'not published yet: not confirmed');
  const second = planClaims(input({ desired, state: first.state, published: new Set(['m1']) }));
  assert.equal(second.confirmed, ['m1']);
  assert.equal([...second.state.confirmed], ['m1']);
});

test('a cluster another live replica claims is neither claimed nor confirmed: an unconfirmed claim yields', () => {
  const desired = new Map([['m1', 'a']]);
  assert.equal(planClaims(input({ desired, others: new Map([['b', ['m1']]]) })).claimed, []);
  const racing = planClaims(
    input({
      desired,
      state: { claims: new Set(['m1']), confirmed: none },
      published: new Set(['m1']),
      others: new Map([['b', ['m1']]]),
    }),
  );
  assert.equal(racing.yielded, ['m1']);
  assert.equal([...racing.state.claims], []);
});

test('a confirmed claim stands against a newcomer claiming the same cluster', () => {
  const plan = planClaims(
    input({
      desired: new Map([['m1', 'a']]),
      state: { claims: new Set(['m1']), confirmed: new Set(['m1']) },
      published: new Set(['m1']),
      others: new Map([['b', ['m1']]]),
    }),
  );
  assert.equal([...plan.state.confirmed], ['m1']);
  assert.equal(plan.yielded, []);
});

test('a cluster assigned elsewhere stops being applied at once and is released once no pass holds it', () => {
  const state = { claims: new Set(['m1']), confirmed: new Set(['m1']) };
  const desired = new Map([['m1', 'b']]);
  const busy = planClaims(input({ desired, state, busy: new Set(['m1']), published: new Set(['m1']) }));
  assert.equal([...busy.state.confirmed], []);
  assert.equal([...busy.state.claims], ['m1'], 'still claimed while a pass applies it');
  const free = planClaims(input({ desired, state: busy.state }));
  assert.equal(free.released, ['m1']);
  assert.equal([...free.state.claims], []);
});

test('peers: expiry counts from the local observation of the last change; a released Lease is not live', () => {
  const lease = (holder: string, renew: string): LeaseObject => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: `flotilla-replica-${holder || 'x'}`,
      namespace: 'flotilla-system',
      annotations: { 'flotilla.io/clusters': '["m1"]' },
    },
    spec: { holderIdentity: holder, leaseDurationSeconds: 3, renewTime: renew },
  });
  const t0 = 1_000_000;
  const first = observePeers(new Map(), [lease('b', '2020-01-01T00:00:00.000000Z')], t0);
  const b = first.get('flotilla-replica-b')!;
  assert.equal(b.claims, ['m1']);
  assert.ok(isLive(b, t0 + 2_999));
  const same = observePeers(first, [lease('b', '2020-01-01T00:00:00.000000Z')], t0 + 2_000).get('flotilla-replica-b')!;
  assert.is(same.observedAt, t0);
  assert.not.ok(isLive(same, t0 + 3_000));
  const renewed = observePeers(first, [lease('b', '2020-01-01T00:00:02.000000Z')], t0 + 2_000).get(
    'flotilla-replica-b',
  )!;
  assert.ok(isLive(renewed, t0 + 4_000));
  assert.not.ok(
    isLive(observePeers(new Map(), [lease('', '2020-01-01T00:00:00.000000Z')], t0).get('flotilla-replica-x')!, t0),
  );
});

test.run();
