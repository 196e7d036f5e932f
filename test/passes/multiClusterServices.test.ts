// Multi-cluster services under the running reconciler (no resync): pods that turn Ready on the exporter reach the
// importer's slices through the status branch within about one status period, by the status pass recording the
// endpoints and the full pass it makes due ('endpoints'). Real daemon in-process, real members, kubectl 1.32.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { kubectl, waitFor } from '../deliveries/helpers/e2e.ts';
import { mcsFiles } from '../deliveries/helpers/mcsFixtures.ts';
import { clusterRegistration, makeFleet, type Fleet } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';

const STATUS_PERIOD_MS = 500;
let fleet: Fleet;
let reconciler: Reconciler | undefined;

test.before(async () => {
  // Pods turn Ready 1.5 s after they are bound: the pass that applies them cannot see them ready.
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 1_500 });
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const k = async (cluster: string, ...args: string[]) => {
  const r = await kubectl(path.join(fleet.credentials, 'members.config'), path.join(fleet.root, 'kubectl-cache'), [
    '--context',
    cluster,
    ...args,
  ]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};
const readyPodIps = async () => {
  const pods = JSON.parse(await k('member1', 'get', 'pods', '-n', 'default', '-l', 'app=web', '-o', 'json')) as {
    items: { status?: { podIP?: string; conditions?: { type: string; status: string }[] } }[];
  };
  return pods.items
    .filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((p) => p.status!.podIP!)
    .sort();
};
const importedIps = async () => {
  const list = JSON.parse(
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
  ) as { items: { endpoints?: { addresses: string[] }[] }[] };
  return list.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
};

/** ms from the moment `count` of member1's pods are Ready until member2's imported slices carry exactly their IPs. */
async function latency(count: number): Promise<number> {
  const ips = await waitFor(
    `${count} ready pods on member1`,
    async () => {
      const ready = await readyPodIps();
      return ready.length === count ? ready : undefined;
    },
    30_000,
    20,
  );
  const ready = Date.now();
  await waitFor(
    "member1's ready pod IPs in member2's imported slices",
    async () => JSON.stringify(await importedIps()) === JSON.stringify(ips),
    30_000,
    20,
  );
  return Date.now() - ready;
}

test('pods turning Ready on the exporter reach the importer by a status pass and the full pass it makes due, with no resync', async () => {
  const events = new LogEvents();
  reconciler = await startReconciler({
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
    resyncMs: 0,
    statusUpdateFrequencyMs: STATUS_PERIOD_MS,
    catchUp: { intervalMs: 200, forMs: 20_000 },
    log: events.log,
  });
  // Not timed (a loaded machine stretches it): what carried the IPs is checked instead, a full pass the status pass
  // made due for changed endpoints, in each round; with no resync, nothing else runs a full pass.
  // The pass logs when it ends, after its apply put the IPs on member2: awaited, the deadline only a safety net.
  const endpointsPassSince = (from: number) =>
    events.next(
      'a full pass for changed endpoints',
      (e) =>
        events.entries.indexOf(e) >= from &&
        e.step === 'pass' &&
        Boolean((e.reasons as string[] | undefined)?.includes('endpoints')),
      30_000,
      true,
    );
  let from = events.entries.length;
  fleet.push(mcsFiles(2, true, true, clusterRegistration), 'web exported from member1, imported on member2');
  const first = await latency(2);
  await endpointsPassSince(from);
  from = events.entries.length;
  fleet.push(mcsFiles(3, true, true, clusterRegistration), 'scale web to 3');
  const scaled = await latency(3);
  await endpointsPassSince(from);
  assert.not.ok(
    events.entries.some((e) => e.step === 'pass' && (e.reasons as string[] | undefined)?.includes('resync')),
    'no resync ran',
  );
  console.log(`ready -> imported: ${first} ms, after scaling: ${scaled} ms (status period ${STATUS_PERIOD_MS} ms)`);
});

test.run();
