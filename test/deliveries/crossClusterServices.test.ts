// MultiClusterService (type CrossCluster) across three emulated members through Git, Karmada's e2e cases of
// test/e2e/suites/base/mcs_test.go in order on one fleet: the Service goes to providers ∪ consumers, each provider's
// EndpointSlices reach every consumer but itself as `<provider>-<slice>`, a change of providers and consumers moves
// them, an unknown cluster is reported. Real kubectl 1.32, a real config repo, the reconciler's full and status passes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, reconcileStatusOnce } from '../../src/reconcile.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { readTextFiles } from '../../src/commits/readPathOids.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';
import { crossClusterService, deployment, SERVICE } from './helpers/mcsFixtures.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const OUTPUT = 'refs/heads/flotilla/rendered';
let fleet: MemberFleet;
/** Ready flips on the first probe that says so: a provider's readiness is what these tests turn. */
const NO_DAMPING = { failureMs: 0, successMs: 0 };

const mcs = crossClusterService;
/** The config repo: web's Deployment on `workloadOn` by a policy, its Service placed by the MultiClusterService alone. */
const files = (providers: string[], consumers: string[], workloadOn: string[]) => ({
  ...Object.fromEntries(MEMBERS.map((m) => [`clusters/${m}.yaml`, clusterYaml(m)])),
  'templates/web.yaml': `${deployment(1)}---\n${SERVICE}`,
  'templates/mcs.yaml': mcs(providers, consumers),
  'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [${workloadOn.join(', ')}]}}
`,
});

const full = async () => {
  for (let i = 0; i < 3; i++) {
    const r = await reconcileOnce({
      repo: fleet.repo,
      sourceRef: 'refs/heads/main',
      outputRef: OUTPUT,
      clusters: fleet.kubes,
      render: true,
      readyThresholds: NO_DAMPING,
      log: () => {},
    });
    if (!r.statusPaths.some((p) => p.startsWith('endpoints/'))) return;
  }
};
const statusPeriod = async () => {
  const s = await reconcileStatusOnce({
    repo: fleet.repo,
    outputRef: OUTPUT,
    clusters: fleet.kubes,
    readyThresholds: NO_DAMPING,
    log: () => {},
  });
  if (s.changedPaths.some((p) => p.startsWith('endpoints/'))) await full();
};

interface Slice {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  endpoints?: { addresses: string[] }[] | null;
}
const slices = async (cluster: string): Promise<Slice[]> => {
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
  return (JSON.parse(r.stdout) as { items: Slice[] }).items;
};
const dispatched = (s: Slice) =>
  s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === 'endpointslice-dispatch-controller.karmada.io';
const count = (s: Slice) => (s.endpoints ?? []).length;

/**
 * checkEndpointSliceWithMultiClusterService: every provider's own slice is on every other consumer as
 * `<provider>-<slice>` with as many endpoints; and, beyond Karmada's check, no consumer holds a dispatched slice of a
 * cluster that is not one of its providers, nor of itself.
 */
const synced = async (providers: string[], consumers: string[]): Promise<boolean> => {
  const live = new Map(await Promise.all(MEMBERS.map(async (m) => [m, await slices(m)] as const)));
  for (const provider of providers) {
    for (const consumer of consumers) {
      if (provider === consumer) continue;
      for (const own of live.get(provider)!.filter((s) => !dispatched(s))) {
        const copy = live.get(consumer)!.find((s) => s.metadata.name === `${provider}-${own.metadata.name}`);
        if (!copy || count(copy) !== count(own)) return false;
      }
    }
  }
  for (const [cluster, list] of live) {
    for (const s of list.filter(dispatched)) {
      const from = s.metadata.annotations?.['endpointslice.karmada.io/provision-cluster'];
      if (!from || from === cluster || !providers.includes(from) || !consumers.includes(cluster)) return false;
    }
  }
  return true;
};
const awaitSynced = (providers: string[], consumers: string[]) =>
  waitFor(
    `slices of ${providers.join(',')} dispatched to ${consumers.join(',')}`,
    async () => {
      await statusPeriod();
      return synced(providers, consumers);
    },
    30_000,
    200,
  );
/** The MultiClusterService's conditions on the status branch, `Type=Status Reason Message`; undefined without a file. */
const statusConditions = (): string[] | undefined => {
  const statusPath = 'multiclusterservices/default/web.yaml';
  if (!fleet.config.git('ls-tree', '--name-only', 'flotilla/status', '--', statusPath).trim()) return undefined;
  try {
    const file = parse(fleet.config.git('show', `flotilla/status:${statusPath}`)) as {
      status: { conditions: { type: string; status: string; reason: string; message: string }[] };
    };
    return file.status.conditions.map((c) => `${c.type}=${c.status} ${c.reason} ${c.message}`);
  } catch {
    return undefined;
  }
};
const serviceOn = async (cluster: string) =>
  (await fleet.kubectl(['--context', cluster, 'get', 'service', 'web', '-n', 'default'])).code === 0;
const readyOn = (clusters: string[]) =>
  waitFor(
    `web's pods Ready on ${clusters.join(',')}`,
    async () => {
      await statusPeriod();
      for (const c of clusters) {
        const own = (await slices(c)).filter((s) => !dispatched(s));
        if (own.reduce((n, s) => n + count(s), 0) < 1) return false;
      }
      return true;
    },
    30_000,
    200,
  );
/** The incremental render of the head equals a cold render of the same commit (flotilla verify). */
const verifies = async () => {
  const report = await verifyOutput(fleet.repo, { outputRef: OUTPUT });
  assert.ok(report.ok, JSON.stringify({ differs: report.differs, missing: report.missing, extra: report.extra }));
};
const use = async (providers: string[], consumers: string[], workloadOn: string[], message: string) => {
  fleet.config.commit(files(providers, consumers, workloadOn), message);
  await full();
  await verifies();
  await readyOn(workloadOn);
};

test.before(async () => {
  fleet = await startMemberFleet(MEMBERS, files(['member1'], ['member2'], ['member1']), 'web provided by member1');
  await full();
});

test.after(async () => {
  await fleet?.cleanup();
});

test('providers [member1], consumers [member2]: the Service goes to both, member1 slices reach member2 as member1-<slice>', async () => {
  await readyOn(['member1']);
  await awaitSynced(['member1'], ['member2']);
  assert.ok(await serviceOn('member1'));
  assert.ok(await serviceOn('member2'));
  assert.not.ok(await serviceOn('member3'), 'member3 neither provides nor consumes');
  const [copy] = (await slices('member2')).filter(dispatched);
  assert.ok(copy!.metadata.name.startsWith('member1-web'), copy!.metadata.name);
  assert.is(copy!.metadata.labels!['kubernetes.io/service-name'], 'web');
  assert.is(copy!.metadata.annotations!['endpointslice.karmada.io/provision-cluster'], 'member1');
  assert.is((await slices('member1')).filter(dispatched).length, 0, 'member1 consumes nothing');
  // The MultiClusterService is on the rendered branch in its published shape, never in a cluster's folder; no pod IP is.
  const tree = (await readCommitInfo(fleet.repo, (await readRef(fleet.repo, OUTPUT))!)).tree;
  const rendered = await readTextFiles(fleet.repo, tree, [...(await listTreeFiles(fleet.repo, tree)).keys()]);
  const validate = new Ajv({ strict: false }).compile(
    JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, '../../docs/schemas/rendered-multiclusterservice.schema.json'),
        'utf8',
      ),
    ),
  );
  const file = rendered.get('multiclusterservices/default/web.yaml');
  assert.ok(file && validate(parse(file)), JSON.stringify(validate.errors));
  const ips = (await slices('member1')).flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses));
  assert.ok(ips.length > 0);
  // Karmada's status conditions, on the status branch once member2's inventory holds what was dispatched to it.
  const conditions = await waitFor(
    'ServiceApplied and EndpointSliceDispatched on the status branch',
    async () => {
      await statusPeriod();
      const c = statusConditions();
      return c?.length === 2 ? c : undefined;
    },
    30_000,
    200,
  );
  assert.equal(conditions, [
    'ServiceApplied=True ServiceAppliedSucceed Service is propagated to target clusters.',
    'EndpointSliceDispatched=True EndpointSliceDispatchedSucceed EndpointSlice are dispatched successfully',
  ]);
  const validateStatus = new Ajv({ strict: false }).compile(
    JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, '../../docs/schemas/status-multiclusterservice.schema.json'),
        'utf8',
      ),
    ),
  );
  const statusFile = parse(fleet.config.git('show', 'flotilla/status:multiclusterservices/default/web.yaml'));
  assert.ok(validateStatus(statusFile), JSON.stringify(validateStatus.errors));
  for (const [p, text] of rendered) {
    assert.not.ok(p.startsWith('clusters/') && text.includes('kind: MultiClusterService'), p);
    for (const ip of ips) assert.not.ok(text.includes(ip), `${p} holds ${ip}`);
  }
});

test('a provider that is not Ready is skipped: its slices leave the consumer, with a note, and return once it is Ready', async () => {
  const member1 = fleet.members[0]!;
  await member1.faults.set({ readyzFalse: true });
  try {
    await waitFor(
      "member1's slices gone from member2",
      async () => {
        await statusPeriod();
        await full();
        return (await slices('member2')).filter(dispatched).length === 0;
      },
      30_000,
      200,
    );
    const pass = await reconcileOnce({
      repo: fleet.repo,
      sourceRef: 'refs/heads/main',
      outputRef: OUTPUT,
      clusters: fleet.kubes,
      render: true,
      readyThresholds: NO_DAMPING,
      log: () => {},
    });
    assert.ok(
      pass.delivery?.clusters
        .get('member2')
        ?.notes.includes(
          'MultiClusterService default/web: provider member1 is not Ready (Ready=False): its EndpointSlices are not dispatched',
        ),
      JSON.stringify(pass.delivery?.clusters.get('member2')?.notes),
    );
  } finally {
    await member1.faults.set({ readyzFalse: false });
  }
  await awaitSynced(['member1'], ['member2']);
});

test('providers [member1, member2], consumers [member2]: member2 gets member1 slices and never its own back', async () => {
  await use(['member1', 'member2'], ['member2'], ['member1', 'member2'], 'member2 provides too');
  await awaitSynced(['member1', 'member2'], ['member2']);
  assert.ok((await slices('member2')).filter(dispatched).every((s) => s.metadata.name.startsWith('member1-')));
});

test('updated to providers [member2], consumers [member1]: member2 slices reach member1, member1 slices leave member2', async () => {
  await use(['member2'], ['member1'], ['member1', 'member2'], 'swap providers and consumers');
  await awaitSynced(['member2'], ['member1']);
  assert.is((await slices('member2')).filter(dispatched).length, 0);
});

test('an unknown provider cluster is reported with its file and line; the known ones still dispatch', async () => {
  await use(['member2', 'member-not-found'], ['member1'], ['member1', 'member2'], 'a provider that does not exist');
  await awaitSynced(['member2'], ['member1']);
  const { model, output } = await renderSnapshot(fleet.repo, 'refs/heads/main');
  const problem = [...model.problems, ...output.problems].find((p) => p.code === 'UNKNOWN_CLUSTER');
  assert.ok(problem, 'UNKNOWN_CLUSTER reported');
  assert.is(problem!.file, 'templates/mcs.yaml');
  assert.is(problem!.line, 6);
  assert.match(problem!.message, /member-not-found/);
});

test('empty providers: every cluster provides to consumers [member2]', async () => {
  await use([], ['member2'], ['member1'], 'every cluster provides');
  await awaitSynced(MEMBERS, ['member2']);
  assert.ok(await serviceOn('member3'), 'providers ∪ consumers is every cluster');
});

test('empty consumers: providers [member1] reach every other cluster', async () => {
  await use(['member1'], [], ['member1'], 'every cluster consumes');
  await awaitSynced(['member1'], MEMBERS);
});

test('both empty: every cluster gets every other cluster slices', async () => {
  await use([], [], ['member1'], 'all to all');
  await awaitSynced(MEMBERS, MEMBERS);
});

test('deleting the MultiClusterService prunes every dispatched slice; its Service keeps running where it ran', async () => {
  fleet.config.commit({ ...files([], [], ['member1']), 'templates/mcs.yaml': null }, 'drop it');
  await full();
  await verifies();
  assert.is(statusConditions(), undefined, 'its status goes with it');
  for (const m of MEMBERS) {
    assert.is((await slices(m)).filter(dispatched).length, 0, m);
    assert.ok(await serviceOn(m), m);
  }
  // The render that saw it go says so, as for a deleted policy.
  assert.match(
    fleet.config.git('log', '-1', '--format=%B', 'flotilla/rendered'),
    'POLICY_REMOVED  Service default/web was placed by MultiClusterService default/web, which is gone',
  );
});

test.run();
