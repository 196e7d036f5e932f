// Multi-cluster services with Pull members: both agents work from Git alone. member1's agent records its exported
// endpoints on the status branch, member2's agent derives derived-web and imported-member1-* slices from them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMemberFleet, waitFor, type MemberFleet } from '../deliveries/helpers/e2e.ts';
import { mcsFiles } from '../deliveries/helpers/mcsFixtures.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { agentPass, renderOnly } from './helpers/pullFleet.ts';

let fleet: MemberFleet;
const pullRegistration = (name: string) => clusterYaml(name).replace('syncMode: Push', 'syncMode: Pull');

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    mcsFiles(2, true, true, pullRegistration) as Record<string, string>,
    'web exported from member1, imported on member2, both Pull',
  );
  await renderOnly(fleet);
});
test.after(async () => {
  await fleet?.cleanup();
});

const k = async (cluster: string, ...args: string[]) => {
  const r = await fleet.kubectl(['--context', cluster, ...args]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};

test("a Pull importer gets the Pull exporter's ready pod IPs through the status branch", async () => {
  const ips = await waitFor(
    "member1's two pods ready, in member2's imported slices",
    async () => {
      await agentPass(fleet, 'member1');
      await agentPass(fleet, 'member2');
      const pods = JSON.parse(await k('member1', 'get', 'pods', '-n', 'default', '-l', 'app=web', '-o', 'json')) as {
        items: { status?: { podIP?: string; conditions?: { type: string; status: string }[] } }[];
      };
      const ready = pods.items
        .filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
        .map((p) => p.status!.podIP!)
        .sort();
      const slices = JSON.parse(
        await k(
          'member2',
          'get',
          'endpointslices',
          '-n',
          'default',
          '-l',
          'kubernetes.io/service-name=derived-web',
          '-o',
          'json',
        ),
      ) as { items: { metadata: { name: string }; endpoints?: { addresses: string[] }[] }[] };
      const imported = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
      return ready.length === 2 &&
        slices.items.every((s) => s.metadata.name.startsWith('imported-member1-')) &&
        JSON.stringify(imported) === JSON.stringify(ready)
        ? ready
        : undefined;
    },
    30_000,
    200,
  );
  assert.is(ips.length, 2);
  await k('member2', 'get', 'service', 'derived-web', '-n', 'default');
});

test.run();
