import { statSync } from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { connectKubeTarget } from '../deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import type { ClusterRegistration } from './readClusterRegistrations.ts';

export interface ClusterConnectionOptions {
  /** Relative kubeconfigRef paths resolve against this folder. */
  credentialsDir: string;
  /** For a Cluster without kubeconfigRef: a kubeconfig holding one context per cluster name. */
  fallbackKubeconfig: string | undefined;
  log: (entry: Record<string, unknown>) => void;
  /** A cluster left the registrations (or became Pull): its per-cluster state can go. */
  onRemoved?: (cluster: string) => void;
}

/**
 * Keeps one connection per Push-mode cluster registered in Git, reused from pass to pass while the
 * registration and its kubeconfig file stay the same; a changed kubeconfig (new token, new CA) reconnects.
 */
export class ClusterConnections {
  private readonly open = new Map<string, { key: string; target: KubeTarget }>();
  private readonly reported = new Set<string>();

  constructor(private readonly opts: ClusterConnectionOptions) {}

  async resolve(registrations: readonly ClusterRegistration[]): Promise<Map<string, KubeTarget>> {
    const wanted = registrations.filter((r) => r.syncMode === 'Push');
    const out = new Map<string, KubeTarget>();
    for (const reg of wanted) {
      const where = this.locate(reg);
      if (where instanceof Error) {
        this.reportOnce(reg.name, where.message);
        continue;
      }
      const key = `${where.file}\0${where.context}\0${where.mtimeMs}`;
      const current = this.open.get(reg.name);
      if (current?.key === key) {
        out.set(reg.name, current.target);
        continue;
      }
      try {
        const kc = new KubeConfig();
        kc.loadFromFile(where.file);
        if (!kc.getContextObject(where.context)) throw new Error(`${reg.source}: kubeconfig ${where.file} has no context "${where.context}"; fix: set spec.kubeconfigRef.context to one of ${kc.getContexts().map((c) => c.name).join(', ') || '(none)'}`);
        const target = await connectKubeTarget(kc, { context: where.context, name: reg.name });
        if (current) await current.target.close();
        this.open.set(reg.name, { key, target });
        this.reported.delete(reg.name);
        this.opts.log({ step: 'clusters', cluster: reg.name, connected: target.server, kubeconfig: where.file, context: where.context });
        out.set(reg.name, target);
      } catch (err) {
        this.reportOnce(reg.name, (err as Error).message);
      }
    }
    for (const [name, c] of this.open) {
      if (out.has(name) || wanted.some((r) => r.name === name)) continue;
      this.open.delete(name);
      await c.target.close();
      this.opts.log({ step: 'clusters', cluster: name, removed: true });
      this.opts.onRemoved?.(name);
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((c) => c.target.close()));
    this.open.clear();
  }

  private locate(reg: ClusterRegistration): { file: string; context: string; mtimeMs: number } | Error {
    const ref = reg.kubeconfigRef;
    const file = ref?.path ? path.resolve(this.opts.credentialsDir, ref.path) : this.opts.fallbackKubeconfig;
    if (!file) return new Error(`${reg.source}: Cluster ${reg.name} names no kubeconfig; fix: set spec.kubeconfigRef {path, context}, or start flotilla run with --kubeconfig FILE holding a context named ${reg.name}`);
    try {
      return { file, context: ref?.context ?? reg.name, mtimeMs: statSync(file).mtimeMs };
    } catch {
      return new Error(`${reg.source}: kubeconfig ${file} of Cluster ${reg.name} does not exist; fix: put it there, or pass --credentials-dir (relative paths resolve against it; now ${this.opts.credentialsDir})`);
    }
  }

  /** A broken cluster is logged when it breaks, not on every pass. */
  private reportOnce(cluster: string, error: string): void {
    if (this.reported.has(cluster)) return;
    this.reported.add(cluster);
    this.opts.log({ step: 'clusters', cluster, skipped: error });
  }
}
