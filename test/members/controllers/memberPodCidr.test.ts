import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memberPodCidr, nodePodCidr } from '../../../src/members/controllers/memberPodCidr.ts';

test('each member name maps to its own /16 in 10.128.0.0/9, the same one every time', () => {
  const cidrs = ['member1', 'member2', 'member3'].map(memberPodCidr);
  assert.equal(cidrs, ['10.210.0.0/16', '10.135.0.0/16', '10.223.0.0/16']);
  assert.is(memberPodCidr('member1'), cidrs[0]);
  for (const cidr of cidrs) assert.ok(Number(cidr.split('.')[1]) >= 128);
});

test("node N gets the Nth /24 of the member's range", () => {
  assert.is(nodePodCidr('10.210.0.0/16', 0), '10.210.0.0/24');
  assert.is(nodePodCidr('10.210.0.0/16', 2), '10.210.2.0/24');
});

test.run();
