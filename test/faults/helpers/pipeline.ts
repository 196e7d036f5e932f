// The whole pipeline on loopback: a config repo (test/helpers/fleet.ts), emulated members, and reconcileOnce between them.
// "Expected" is what the rendered branch says each member runs; "actual" is read from each member's own store,
// not from anything the applier reports, so a lost object is counted even when Flotilla thinks all is well.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { groupOf, refKey, type ObjectRef } from '../../../src/api/kinds.ts';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { readBlobs } from '../../../src/commits/readBlobs.ts';
import type { GitRepo } from '../../../src/commits/types.ts';
import { connectKubeTarget } from '../../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../../src/deliveries/KubeTarget.ts';
import { startMember, type Member } from '../../../src/members/startMember.ts';
import { resourceKeyOf } from '../../../src/members/resources/ResourceRegistry.ts';
import { renderKubeconfig } from '../../../src/members/writeKubeconfig.ts';
import { reconcileOnce, type ReconcileResult } from '../../../src/reconcile.ts';
import { baseFiles, CLUSTERS, type Fleet, makeFleet, RENDERED_REF, SOURCE_REF } from '../../helpers/fleet.ts';

export const STATUS_REF = 'refs/heads/flotilla/status';

export interface ExpectedObject {
  cluster: string;
  ref: ObjectRef;
}

export class Pipeline {
  readonly logs: Record<string, unknown>[] = [];
  readonly members = new Map<string, Member>();
  readonly kubes = new Map<string, KubeTarget>();
  private readonly dirs: string[] = [];

  private constructor(readonly fleet: Fleet) {}

  static async start(
    opts: { files?: Record<string, string>; clusters?: readonly string[]; timeoutMs?: number } = {},
  ): Promise<Pipeline> {
    const clusters = opts.clusters ?? CLUSTERS;
    const p = new Pipeline(await makeFleet({ files: opts.files ?? baseFiles(4, clusters) }));
    for (const name of clusters) await p.startMember(name);
    await p.connect(opts.timeoutMs ?? 2_000);
    return p;
  }

  /** Starts (or restarts, on the same data dir and port) one member. */
  async startMember(name: string, opts: { empty?: boolean } = {}): Promise<Member> {
    const old = this.members.get(name);
    let dataDir = old?.dataDir;
    if (!dataDir) {
      dataDir = mkdtempSync(path.join(tmpdir(), `flotilla-faults-${name}-`));
      this.dirs.push(dataDir);
    }
    // Emptied: the member's etcd is gone, its CA, token and address are not.
    if (opts.empty) rmSync(path.join(dataDir, 'state.json'), { force: true });
    const member = await startMember({
      name,
      dataDir,
      ...(old ? { port: old.port } : { port: 0 }),
      readyDelayMs: 50,
      onError: () => undefined,
    });
    this.members.set(name, member);
    return member;
  }

  async connect(timeoutMs: number): Promise<void> {
    const kc = new KubeConfig();
    kc.loadFromString(renderKubeconfig([...this.members.values()]));
    for (const name of this.members.keys())
      this.kubes.set(name, await connectKubeTarget(kc, { context: name, timeoutMs }));
  }

  repo(): Promise<GitRepo> {
    return openRepo(this.fleet.work.dir);
  }

  /** How far the reconciler's clock runs ahead of the wall clock: Ready damping and taint times read it. */
  private clockOffsetMs = 0;

  /** Moves the reconciler's clock forward (e.g. past the 30 s Ready failure threshold) without waiting. */
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /** One pass of the reconciler (render → apply → status) over every member, or the given ones. */
  async reconcile(opts: { repo?: GitRepo; clusters?: ReadonlyMap<string, KubeTarget> } = {}): Promise<ReconcileResult> {
    return reconcileOnce({
      repo: opts.repo ?? (await this.repo()),
      sourceRef: SOURCE_REF,
      outputRef: RENDERED_REF,
      statusRef: STATUS_REF,
      clusters: opts.clusters ?? this.kubes,
      render: true,
      log: (e) => this.logs.push(e),
      now: () => new Date(Date.now() + this.clockOffsetMs),
    });
  }

  /** What the rendered head says each member runs. */
  async expected(): Promise<ExpectedObject[]> {
    const files = await this.fleet.output();
    const paths = [...files].filter(([p]) => p.startsWith('clusters/'));
    const blobs = await readBlobs(
      this.fleet.repo,
      paths.map(([, oid]) => oid),
    );
    return paths.map(([p, oid]) => {
      const m = parse(new TextDecoder().decode(blobs.get(oid)!)) as {
        apiVersion: string;
        kind: string;
        metadata: { name: string; namespace?: string };
      };
      return {
        cluster: p.split('/')[1]!,
        ref: { apiVersion: m.apiVersion, kind: m.kind, namespace: m.metadata.namespace ?? '', name: m.metadata.name },
      };
    });
  }

  /** The live object on a member, read from its store. */
  live(cluster: string, ref: ObjectRef): Record<string, unknown> | undefined {
    const member = this.members.get(cluster)!;
    const rt = member.registry.byKind(groupOf(ref.apiVersion), ref.kind);
    if (!rt) return undefined;
    return member.store.get(resourceKeyOf(rt), ref.namespace || undefined, ref.name);
  }

  /** Expected objects a member does not have: the row's "lost". */
  lost(expected: readonly ExpectedObject[]): ExpectedObject[] {
    return expected.filter((e) => !this.live(e.cluster, e.ref));
  }

  /** Number of objects carrying karmada.io/managed=true on a member (what Flotilla placed there). */
  managedCount(cluster: string): number {
    const member = this.members.get(cluster)!;
    let n = 0;
    for (const resource of member.store.resources()) {
      for (const o of member.store.list(resource)) if (o.metadata.labels?.['karmada.io/managed'] === 'true') n++;
    }
    return n;
  }

  /** Reconciles until `done` holds (each pass is one reconcile), or throws after `passes`. Returns the passes used. */
  async reconcileUntil(done: () => boolean | Promise<boolean>, passes = 5): Promise<number> {
    for (let i = 1; i <= passes; i++) {
      await this.reconcile();
      if (await done()) return i;
    }
    throw new Error(`not converged after ${passes} reconcile passes`);
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.kubes.values()].map((k) => k.close()));
    await Promise.all([...this.members.values()].map((m) => m.stop()));
    await this.fleet.cleanup();
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

export function describeLost(lost: readonly ExpectedObject[]): string {
  return lost.map((l) => `${l.cluster}:${refKey(l.ref)}`).join(', ');
}

/** Runs `fn` with a fresh pipeline that is always torn down. */
export async function withPipeline<T>(
  fn: (p: Pipeline) => Promise<T>,
  opts?: Parameters<typeof Pipeline.start>[0],
): Promise<T> {
  const p = await Pipeline.start(opts);
  try {
    return await fn(p);
  } finally {
    await p.cleanup();
  }
}
