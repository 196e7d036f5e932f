// A CrossCluster MultiClusterService with Pull members: both agents work from Git alone. member1's agent records
// the Service's slices it provides on the status branch, member2's agent applies them as member1-<slice>.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMemberFleet, waitFor, type MemberFleet } from '../deliveries/helpers/e2e.ts';
import { crossClusterService, deployment, SERVICE } from '../deliveries/helpers/mcsFixtures.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { agentPass, renderOnly } from './helpers/pullFleet.ts';

let fleet: MemberFleet;
const pull = (name: string) => clusterYaml(name).replace('syncMode: Push', 'syncMode: Pull');

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    {
      'clusters/member1.yaml': pull('member1'),
      'clusters/member2.yaml': pull('member2'),
      'templates/web.yaml': `${deployment(2)}---\n${SERVICE}`,
      'templates/mcs.yaml': crossClusterService(['member1'], ['member2']),
      'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
    },
    'web provided by member1 to member2, both Pull',
  );
  await renderOnly(fleet);
});
test.after(async () => {
  await fleet?.cleanup();
});

const slices = async (cluster: string) => {
  const r = await fleet.kubectl([
    '--context',
    cluster,
    'get',
    'endpointslices',
    '-n',
    'default',
    '-l',
    'kubernetes.io/service-name=web',
    '-o',
    'json',
  ]);
  assert.is(r.code, 0, r.stderr);
  return (
    JSON.parse(r.stdout) as {
      items: { metadata: { name: string; annotations?: Record<string, string> }; endpoints?: unknown[] | null }[];
    }
  ).items;
};

test("a Pull consumer gets the Pull provider's slices as member1-<slice> through the status branch", async () => {
  await waitFor(
    "member1's two endpoints in member2's dispatched slices",
    async () => {
      await agentPass(fleet, 'member1');
      await agentPass(fleet, 'member2');
      const own = (await slices('member1')).filter(
        (s) => !s.metadata.annotations?.['endpointslice.karmada.io/provision-cluster'],
      );
      const copies = (await slices('member2')).filter(
        (s) => s.metadata.annotations?.['endpointslice.karmada.io/provision-cluster'] === 'member1',
      );
      const count = (list: { endpoints?: unknown[] | null }[]) =>
        list.reduce((n, s) => n + (s.endpoints ?? []).length, 0);
      return (
        count(own) === 2 &&
        copies.length === own.length &&
        copies.every((c) => own.some((o) => c.metadata.name === `member1-${o.metadata.name}`)) &&
        count(copies) === 2
      );
    },
    30_000,
    200,
  );
});

test.run();
