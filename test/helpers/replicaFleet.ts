// Several `flotilla run --leader-elect` replicas as real processes on one bare repo, with an emulated host cluster
// that keeps their Leases and emulated members to apply to: what the HA end-to-end test and the faults suite's rows
// build on. The test process reads the members' and the host's stores directly.
import { createServer, connect, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeObject } from '../../src/members/types.ts';
import { startMember, type Member } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { clusterRegistration, configMap, configMapPolicy, makeFleet, type Fleet } from './fleet.ts';
import { spawnFlotilla, type Child } from './spawnFlotilla.ts';

/** Short Lease timings, so a takeover is seconds: the same ratios as Karmada's 15s/10s/2s. */
export const TEST_TIMINGS = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
export const LEASE_NAMESPACE = 'flotilla-system';
const MANAGED = 'karmada.io/managed';

export interface ReplicaFleet {
  fleet: Fleet;
  host: Member;
  hostConfig: string;
  clusters: string[];
  /** Running replicas by id. */
  replicas: Map<string, Child>;
  start(id: string): Child;
  /** Starts a replica behind a proxy to the host cluster that partition() cuts. */
  startPartitionable(id: string): Promise<Child>;
  /** Cuts (true) or heals (false) the network between a partitionable replica and the host cluster. */
  partition(id: string, cut: boolean): void;
  /** The holder of flotilla-system/flotilla-leader as the host stores it ('' when released, undefined when absent). */
  leaseHolder(): string | undefined;
  /** A Lease as the host stores it. */
  lease(name: string): KubeObject | undefined;
  /** Resolves once the rendered head is `sourceCommit`'s and every member holds exactly its rendered folder. */
  converged(sourceCommit: string, timeoutMs?: number): Promise<void>;
  /** Output commits naming `sourceCommit` on the rendered branch. */
  outputCommitsFor(sourceCommit: string): number;
  /** Managed object names on a member's store, by kind/name. */
  managed(cluster: string): string[];
  cleanup(): Promise<void>;
}

/** A base commit: every ConfigMap to every cluster, `configMaps` of them. */
export function replicaBaseFiles(clusters: readonly string[], configMaps = 3): Record<string, string> {
  const files: Record<string, string> = { 'policies/configmaps.yaml': configMapPolicy([...clusters]) };
  for (const c of clusters) files[`clusters/${c}.yaml`] = clusterRegistration(c);
  for (let i = 0; i < configMaps; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`, `v0`);
  return files;
}

/**
 * `remote`: the replicas reconcile the bare repo through this URL (a Git HTTP server serving the fleet's root,
 * see remoteUrlOf), each with its own mirror, fetching every second; otherwise they share the bare repo's path.
 */
export async function makeReplicaFleet(
  clusters: string[],
  opts: { remote?: (fleet: Fleet) => Promise<{ url: string; close(): Promise<void> }> } = {},
): Promise<ReplicaFleet> {
  const fleet = await makeFleet({ members: clusters, readyDelayMs: 0 });
  const replicas = new Map<string, Child>();
  const proxies = new Map<string, Awaited<ReturnType<typeof blackholeProxy>>>();
  let host: Member | undefined;
  let remote: { url: string; close(): Promise<void> } | undefined;
  try {
    remote = opts.remote ? await opts.remote(fleet) : undefined;
    host = await startMember({ name: 'host', port: 0, dataDir: path.join(fleet.root, 'host'), readyDelayMs: 0 });
    const hostConfig = path.join(fleet.root, 'host.config');
    writeKubeconfig(hostConfig, [host]);
    const kubes = await connectKubeconfig(hostConfig);
    const kube = kubes.get('host')!;
    const res = await kube.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } }),
      contentType: 'application/json',
    });
    await kube.close();
    if (res.status !== 201 && res.status !== 409) throw new Error(`creating ${LEASE_NAMESPACE}: HTTP ${res.status}`);
    const h = host;
    const lease = (name: string) => {
      const resource = h.store.resources().find((r) => r.includes('leases'));
      return resource ? h.store.get(resource, LEASE_NAMESPACE, name) : undefined;
    };
    const memberOf = (cluster: string) => fleet.members[clusters.indexOf(cluster)]!;
    const managed = (cluster: string) => {
      const member = memberOf(cluster);
      const out: string[] = [];
      for (const r of member.store.resources())
        for (const o of member.store.list(r))
          if (o.metadata.labels?.[MANAGED] === 'true') out.push(`${String(o.kind).toLowerCase()}/${o.metadata.name}`);
      return out.sort();
    };
    // The checks below repeat while the host keeping the Leases runs in this process: git without blocking, or a
    // renewal waiting behind them on a loaded machine can cost the leader its Lease.
    const renderedNames = async (cluster: string) =>
      (
        await fleet.gitAsync(
          fleet.bare,
          'ls-tree',
          '-r',
          '--name-only',
          'flotilla/rendered',
          '--',
          `clusters/${cluster}/`,
        )
      )
        .split('\n')
        .filter(Boolean)
        .map((p) => {
          const m = /([^/_]+)_(.+)\.yaml$/.exec(p)!;
          return `${m[1]!.split('.')[0]}/${m[2]}`;
        })
        .sort();
    const renderedSource = async () => {
      try {
        return /Source-Commit: ([0-9a-f]{40})/.exec(
          await fleet.gitAsync(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered'),
        )?.[1];
      } catch {
        return undefined;
      }
    };
    const spawnReplica = (id: string, config: string) => {
      const child = spawnFlotilla([
        'run',
        '--repo',
        remote?.url ?? fleet.bare,
        ...(remote ? ['--mirror-dir', path.join(fleet.root, 'mirrors', id), '--fetch-schedule', '* * * * * *'] : []),
        '--credentials-dir',
        fleet.credentials,
        '--listen',
        '127.0.0.1:0',
        '--resync',
        '0',
        '--leader-elect',
        '--leader-elect-kubeconfig',
        config,
        '--leader-elect-lease-duration',
        `${TEST_TIMINGS.leaseDurationMs}ms`,
        '--leader-elect-renew-deadline',
        `${TEST_TIMINGS.renewDeadlineMs}ms`,
        '--leader-elect-retry-period',
        `${TEST_TIMINGS.retryPeriodMs}ms`,
        '--id',
        id,
      ]);
      replicas.set(id, child);
      return child;
    };
    return {
      fleet,
      host: h,
      hostConfig,
      clusters,
      replicas,
      start: (id) => spawnReplica(id, hostConfig),
      async startPartitionable(id) {
        const proxy = await blackholeProxy(Number(new URL(h.url).port));
        proxies.set(id, proxy);
        const config = path.join(fleet.root, `host-via-proxy-${id}.config`);
        writeKubeconfig(config, [{ ...h, url: `https://127.0.0.1:${proxy.port}` }]);
        return spawnReplica(id, config);
      },
      partition(id, cut) {
        proxies.get(id)!.cut(cut);
      },
      leaseHolder: () => (lease('flotilla-leader')?.spec as { holderIdentity?: string } | undefined)?.holderIdentity,
      lease,
      managed,
      async converged(sourceCommit, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        let last = '';
        for (;;) {
          const source = await renderedSource();
          if (source === sourceCommit) {
            const behind: string[] = [];
            for (const c of clusters) if (managed(c).join() !== (await renderedNames(c)).join()) behind.push(c);
            if (behind.length === 0) return;
            last = `members not matching the rendered head: ${behind.join(', ')}`;
          } else last = `rendered head is of ${source ?? 'nothing'}`;
          if (Date.now() > deadline)
            throw new Error(`not converged on ${sourceCommit} within ${timeoutMs} ms: ${last}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      outputCommitsFor: (sourceCommit) =>
        fleet
          .git(fleet.bare, 'log', '--format=%H', '--grep', `Source-Commit: ${sourceCommit}`, 'flotilla/rendered')
          .split('\n')
          .filter(Boolean).length,
      async cleanup() {
        await Promise.all([...replicas.values()].map((r) => r.kill9()));
        for (const p of proxies.values()) p.close();
        await remote?.close();
        await h.stop();
        await fleet.cleanup();
      },
    };
  } catch (err) {
    await remote?.close();
    await host?.stop();
    await fleet.cleanup();
    throw err;
  }
}

/**
 * A TCP proxy to the host cluster that a test can cut like a network partition: while cut, connections stay open
 * and new ones are accepted but no byte is forwarded either way, so requests time out as they do when packets are
 * dropped; healing drops the stalled connections, as a real connection would reset.
 */
async function blackholeProxy(targetPort: number): Promise<{ port: number; cut(on: boolean): void; close(): void }> {
  let cut = false;
  type Pair = { client: Socket; upstream: Socket | undefined };
  const pairs = new Set<Pair>();
  const stall = (p: Pair) => {
    p.client.unpipe();
    p.upstream?.unpipe();
    p.client.pause();
    p.upstream?.pause();
  };
  const server: Server = createServer((client) => {
    const pair: Pair = { client, upstream: undefined };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (cut) return stall(pair);
    const upstream = connect(targetPort, '127.0.0.1');
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut(on) {
      cut = on;
      if (on) for (const p of pairs) stall(p);
      else for (const p of [...pairs]) p.client.destroy();
    },
    close() {
      for (const p of pairs) p.client.destroy();
      server.close();
    },
  };
}
