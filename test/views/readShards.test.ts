import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { LeaseObject } from '../../src/leases/leaseRecord.ts';
import { printTable } from '../../src/views/printTable.ts';
import { readShards, shardTable } from '../../src/views/readShards.ts';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString().replace('Z', '000Z');

function lease(name: string, holder: string, renewedSecondsAgo: number, claims?: string[]): LeaseObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: 'flotilla-system',
      ...(claims ? { annotations: { 'flotilla.io/clusters': JSON.stringify(claims) } } : {}),
    },
    spec: { holderIdentity: holder, leaseDurationSeconds: 15, renewTime: at(renewedSecondsAgo), leaseTransitions: 2 },
  };
}

test('get shards: one row per replica with its role, clusters and objects; an expired replica and unowned clusters show', () => {
  const weights = new Map([
    ['member1', 10],
    ['member2', 5],
    ['member3', 7],
    ['member4', 1],
  ]);
  const shards = readShards(
    lease('flotilla-leader', 'flotilla-0', 1),
    [
      lease('flotilla-replica-flotilla-1', 'flotilla-1', 2, ['member3']),
      lease('flotilla-replica-flotilla-0', 'flotilla-0', 1, ['member2', 'member1']),
      lease('flotilla-replica-flotilla-2', 'flotilla-2', 60, ['member4']),
    ],
    weights,
    NOW,
  );
  assert.equal(shards.leader, { holder: 'flotilla-0', leaseTransitions: 2, renewTime: at(1) });
  assert.equal(
    shards.replicas.map((r) => [r.replica, r.leader, r.live, r.objects]),
    [
      ['flotilla-0', true, true, 15],
      ['flotilla-1', false, true, 7],
      ['flotilla-2', false, false, 1],
    ],
  );
  assert.equal(shards.unowned, ['member4'], "an expired replica's clusters are nobody's");
  const table = shardTable(shards, true, NOW);
  assert.is(
    printTable(table.headers, table.rows),
    [
      'REPLICA      ROLE      STATUS    CLUSTERS   OBJECTS   RENEWED   CLUSTER-NAMES',
      'flotilla-0   leader    Live      2          15        1s ago    member1,member2',
      'flotilla-1   replica   Live      1          7         2s ago    member3',
      'flotilla-2   replica   Expired   1          1         60s ago   member4',
      '<none>       -         Unowned   1          -         -         member4',
      '',
    ].join('\n'),
  );
});

test('get shards: an expired leader Lease names no leader', () => {
  const shards = readShards(lease('flotilla-leader', 'flotilla-0', 30), [], undefined, NOW);
  assert.is(shards.leader?.holder, undefined);
  assert.equal(shards.unowned, []);
});

test.run();
