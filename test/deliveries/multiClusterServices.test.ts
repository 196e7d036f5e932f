// ServiceExport / ServiceImport across two emulated members through Git (Karmada's mcs e2e "connectivity" and
// "exporter scaling"): member1's slices are collected to the status branch, member2's applier derives
// derived-<name> and imported-member1-<slice> from it. Real kubectl 1.32, a real config repo, the reconciler's
// full and status passes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, reconcileStatusOnce } from '../../src/reconcile.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { readTextFiles } from '../../src/commits/readPathOids.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';
import { crossClusterService, mcsFiles as files, POLICIES } from './helpers/mcsFixtures.ts';
import { permanentId } from '../../src/names/bindingName.ts';
import { workName } from '../../src/names/workName.ts';

let fleet: MemberFleet;

const OUTPUT = 'refs/heads/flotilla/rendered';
const changedEndpoints = (paths: readonly string[]) => paths.some((p) => p.startsWith('endpoints/'));
/** A full pass, and the one more the reconciler runs after any pass that recorded changed endpoints (planAfterPass: 'endpoints'). */
const full = async () => {
  for (let i = 0; i < 3; i++)
    if (
      !changedEndpoints(
        (
          await reconcileOnce({
            repo: fleet.repo,
            sourceRef: 'refs/heads/main',
            outputRef: OUTPUT,
            clusters: fleet.kubes,
            render: true,
            log: () => {},
          })
        ).statusPaths,
      )
    )
      return;
  throw new Error('endpoints changed on three full passes in a row');
};
/** One status period: a status pass, then the full pass it makes due when it recorded changed endpoints. */
const statusPeriod = async () => {
  const s = await reconcileStatusOnce({ repo: fleet.repo, outputRef: OUTPUT, clusters: fleet.kubes, log: () => {} });
  if (changedEndpoints(s.changedPaths)) await full();
};
const k = async (cluster: string, ...args: string[]) => {
  const r = await fleet.kubectl(['--context', cluster, ...args]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};
const readyPodIps = async (cluster: string) => {
  const pods = JSON.parse(await k(cluster, 'get', 'pods', '-n', 'default', '-l', 'app=web', '-o', 'json')) as {
    items: { status?: { podIP?: string; conditions?: { type: string; status: string }[] } }[];
  };
  return pods.items
    .filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((p) => p.status!.podIP!)
    .sort();
};
interface Slice {
  metadata: { name: string; labels: Record<string, string> };
  endpoints?: { addresses: string[] }[];
  ports?: { port: number }[];
}
const importedSlices = async (): Promise<Slice[]> =>
  (
    JSON.parse(
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
    ) as { items: Slice[] }
  ).items;
const importedIps = (slices: Slice[]) => slices.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();

/** Status periods until member2's imported slices carry exactly member1's ready pod IPs, `count` of them. */
const awaitImported = (count: number) =>
  waitFor(
    `member2's imported slices with member1's ${count} ready pod IPs`,
    async () => {
      await statusPeriod();
      const ips = await readyPodIps('member1');
      const imported = importedIps(await importedSlices());
      return ips.length === count && JSON.stringify(imported) === JSON.stringify(ips) ? ips : undefined;
    },
    30_000,
    200,
  );

interface Meta {
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
/** What member2's object carries from its attached binding and Work (binding/common.go ensureWork, CreateOrUpdateWork). */
const assertWorkMetadata = (
  meta: Meta,
  ref: { apiVersion: string; kind: string; name: string },
  conflictResolution: string,
) => {
  const key = `${ref.apiVersion}/${ref.kind}/default/${ref.name}`;
  assert.is(meta.labels['karmada.io/managed'], 'true');
  assert.is(meta.labels['resourcebinding.karmada.io/permanent-id'], permanentId(`binding/${key}`));
  assert.is(meta.labels['work.karmada.io/permanent-id'], permanentId(`work/member2/${key}`));
  assert.is(meta.annotations['resourcebinding.karmada.io/namespace'], 'default');
  assert.is(meta.annotations['resourcebinding.karmada.io/name'], `${ref.name}-${ref.kind.toLowerCase()}`);
  assert.is(meta.annotations['work.karmada.io/name'], workName(ref.kind, ref.name, 'default'));
  assert.is(meta.annotations['work.karmada.io/namespace'], 'karmada-es-member2');
  assert.is(meta.annotations['work.karmada.io/conflict-resolution'], conflictResolution);
  assert.is(
    meta.annotations['resourcetemplate.karmada.io/managed-annotations'],
    'resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace',
  );
};

test.before(async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    files(2) as Record<string, string>,
    'web exported from member1, imported on member2',
  );
  await full();
});

test.after(async () => {
  await fleet?.cleanup();
});

test("an importing member gets derived-<name> and imported-<cluster>-<slice> slices with the exporter's pod IPs, which never reach the rendered branch", async () => {
  const ips = await awaitImported(2);
  const slices = await importedSlices();
  assert.ok(
    slices.length > 0 && slices.every((s) => s.metadata.name.startsWith('imported-member1-web')),
    slices.map((s) => s.metadata.name).join(),
  );
  assert.is(
    slices[0]!.metadata.labels['endpointslice.kubernetes.io/managed-by'],
    'endpointslice-controller.karmada.io',
  );
  assert.equal(
    slices[0]!.ports?.map((p) => p.port),
    [8080],
  );
  const svc = JSON.parse(await k('member2', 'get', 'service', 'derived-web', '-n', 'default', '-o', 'json')) as {
    metadata: Meta;
    spec: { type: string; clusterIP?: string; ports: { port: number }[] };
  };
  // Both reach member2 as Karmada's dependencies of the ServiceImport: each through its attached binding and Work.
  assertWorkMetadata(svc.metadata, { apiVersion: 'v1', kind: 'Service', name: 'derived-web' }, 'abort');
  const slice = slices[0] as Slice & { metadata: Meta };
  assertWorkMetadata(
    slice.metadata,
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', name: slice.metadata.name },
    'abort',
  );
  assert.is(
    slice.metadata.annotations['resourcetemplate.karmada.io/managed-labels'],
    'endpointslice.kubernetes.io/managed-by,karmada.io/managed,kubernetes.io/service-name,resourcebinding.karmada.io/permanent-id,work.karmada.io/permanent-id',
  );
  assert.is(svc.spec.type, 'ClusterIP');
  assert.ok(svc.spec.clusterIP, 'the member allocated a cluster IP');
  assert.equal(
    svc.spec.ports.map((p) => p.port),
    [80],
  );
  // kubectl's table shows the imported slices with member1's addresses.
  const table = await k('member2', 'get', 'endpointslices', '-n', 'default');
  for (const ip of ips) assert.ok(table.includes(ip), table);
  assert.ok(!table.includes('imported-member2'), 'member2 exports nothing');
  // Member1 keeps its own slices only: the imported ones are member2's, and nothing is collected back.
  assert.not.ok((await k('member1', 'get', 'endpointslices', '-n', 'default')).includes('imported-'));
  // The endpoints are on the status branch; no pod IP is on the rendered branch.
  const status = (
    await readTextFiles(
      fleet.repo,
      (
        await readCommitInfo(fleet.repo, (await readRef(fleet.repo, 'refs/heads/flotilla/status'))!)
      ).tree,
      ['endpoints/member1.yaml'],
    )
  ).get('endpoints/member1.yaml')!;
  for (const ip of ips) assert.ok(status.includes(ip), status);
  assert.match(
    fleet.config.git('log', '--format=%B', 'flotilla/status'),
    /member1: endpoints of 1 exported service\(s\) now 2 endpoint\(s\): default\/web/,
  );
  const validate = new Ajv({ strict: false }).compile(
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../docs/schemas/status-endpoints.schema.json'), 'utf8'),
    ),
  );
  assert.ok(validate(parse(status)), JSON.stringify(validate.errors));
  const renderedTree = (await readCommitInfo(fleet.repo, (await readRef(fleet.repo, OUTPUT))!)).tree;
  const renderedFiles = await listTreeFiles(fleet.repo, renderedTree);
  const texts = await readTextFiles(fleet.repo, renderedTree, [...renderedFiles.keys()]);
  for (const [path, text] of texts) for (const ip of ips) assert.not.ok(text.includes(ip), `${path} holds ${ip}`);
});

test('the imported slices follow the exporter when its Deployment scales, and a status pass with no change commits nothing', async () => {
  fleet.config.commit(files(3) as Record<string, string>, 'scale web to 3');
  await full();
  await awaitImported(3);
  const again = await reconcileStatusOnce({
    repo: fleet.repo,
    outputRef: OUTPUT,
    clusters: fleet.kubes,
    log: () => {},
  });
  assert.not.ok(
    again.changedPaths.some((p) => p.startsWith('endpoints/')),
    again.changedPaths.join(),
  );
});

test("deleting the ServiceExport removes the exporter's endpoints file and member2's imported slices; the derived Service stays with the import", async () => {
  fleet.config.commit(files(3, false) as Record<string, string>, 'stop exporting web');
  await waitFor(
    'imported slices gone from member2',
    async () => {
      await full();
      return (await importedSlices()).length === 0;
    },
    30_000,
    200,
  );
  const head = (await readRef(fleet.repo, 'refs/heads/flotilla/status'))!;
  const left = await readTextFiles(fleet.repo, (await readCommitInfo(fleet.repo, head)).tree, [
    'endpoints/member1.yaml',
  ]);
  assert.is(left.get('endpoints/member1.yaml'), undefined);
  await k('member2', 'get', 'service', 'derived-web', '-n', 'default');
});

test("slices member1 records only as a MultiClusterService's provider never reach member2's ServiceImport", async () => {
  fleet.config.commit(
    {
      'templates/mcs.yaml': crossClusterService(['member1'], ['member1']),
    },
    'member1 provides web for a MultiClusterService, with no ServiceExport',
  );
  await full();
  await waitFor(
    "member1's slices recorded for the MultiClusterService",
    async () => {
      await statusPeriod();
      const head = (await readRef(fleet.repo, 'refs/heads/flotilla/status'))!;
      const files = await readTextFiles(fleet.repo, (await readCommitInfo(fleet.repo, head)).tree, [
        'endpoints/member1.yaml',
      ]);
      return files.get('endpoints/member1.yaml')?.includes('name: web') ? true : undefined;
    },
    30_000,
    200,
  );
  await full();
  assert.equal(await importedSlices(), [], "Karmada's service-import side derives only from ServiceExport Works");
  fleet.config.commit({ 'templates/mcs.yaml': null }, 'no MultiClusterService');
  await full();
});

test('deleting the ServiceImport prunes its derived Service and imported slices from member2', async () => {
  fleet.config.commit(files(3) as Record<string, string>, 'export web again');
  await full();
  await awaitImported(3);
  fleet.config.commit(files(3, true, false) as Record<string, string>, 'stop importing web');
  await full();
  assert.is((await importedSlices()).length, 0);
  const gone = await fleet.kubectl(['--context', 'member2', 'get', 'service', 'derived-web', '-n', 'default']);
  assert.match(gone.stderr, /NotFound/);
});

test("an importer whose policy says conflictResolution Overwrite takes over a derived-<name> Service member2 already had, as the ServiceImport's binding passes it to the Service's attached binding", async () => {
  await k('member2', 'create', 'service', 'clusterip', 'derived-web', '-n', 'default', '--tcp=9999:9999');
  const overwrite = POLICIES.replace(
    'placement: {clusterAffinity: {clusterNames: [member2]}}',
    'placement: {clusterAffinity: {clusterNames: [member2]}}\n  conflictResolution: Overwrite',
  );
  assert.ok(overwrite !== POLICIES, "the importer policy is the fixture's");
  fleet.config.commit(
    { ...files(3), 'policies/mcs.yaml': overwrite } as Record<string, string>,
    'import web, overwriting',
  );
  await full();
  const svc = JSON.parse(await k('member2', 'get', 'service', 'derived-web', '-n', 'default', '-o', 'json')) as {
    metadata: Meta;
    spec: { ports: { port: number }[] };
  };
  assertWorkMetadata(svc.metadata, { apiVersion: 'v1', kind: 'Service', name: 'derived-web' }, 'overwrite');
  assert.equal(
    svc.spec.ports.map((p) => p.port),
    [80],
  );
});

test.run();
