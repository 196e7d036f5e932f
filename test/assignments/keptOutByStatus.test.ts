import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClusterStatus } from '../../src/api/cluster.ts';
import { keptOutByStatus } from '../../src/assignments/keptOutByStatus.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { cluster, request } from './helpers.ts';

const GUESTBOOK = {
  apiVersion: 'webapp.my.domain/v1',
  kind: 'Guestbook',
  namespace: 'default',
  name: 'guestbook-sample',
  uid: '',
};
const builtins: ClusterStatus = {
  apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
  conditions: [{ type: 'CompleteAPIEnablements', status: 'True' }],
};
const clusters = [
  cluster('member1', {}, builtins),
  cluster('member2', {}, builtins),
  cluster('member3', { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] }),
];

const keptOut = (clusterNames: string[]) => {
  const req = request({ clusterAffinity: { clusterNames } }, 0, [], { resource: GUESTBOOK });
  const result = schedule(req, clusters);
  return keptOutByStatus(req, result.explanation, clusters, result.affinityName);
};

test('a cluster the placement asks for that does not serve the kind, or carries an untolerated taint, is kept out by status', () => {
  assert.equal(keptOut(['member1', 'member2', 'member3']), ['member1', 'member2', 'member3']);
});

test('a cluster the affinity leaves out is not: a status change could not bring it in', () => {
  assert.equal(keptOut(['member1']), ['member1']);
  assert.equal(keptOut(['member3']), ['member3']);
});

test.run();
