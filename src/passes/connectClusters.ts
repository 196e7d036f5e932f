import { readKubeconfig, type KubeconfigProblem, type LoadedKubeconfig } from '../credentials/readKubeconfig.ts';
import { connectKubeTarget } from '../deliveries/connectKubeTarget.ts';
import { unconnectedTarget, type KubeTarget } from '../deliveries/KubeTarget.ts';
import type { ClusterRegistration } from './readClusterRegistrations.ts';

export interface ClusterConnectionOptions {
  /**
   * kubeconfigRef paths resolve against this folder, and the kubeconfig they name (after every symlink), and
   * every file that kubeconfig names, must lie inside it: the path is written by whoever changes the repo.
   */
  credentialsDir: string;
  /** For a Cluster without kubeconfigRef: a kubeconfig holding one context per cluster name (the operator's, read where it is). */
  fallbackKubeconfig: string | undefined;
  /** --insecure-kubeconfig-exec: a kubeconfig user may run a command (user.exec) for its token. Default false. */
  allowKubeconfigExec?: boolean;
  log: (entry: Record<string, unknown>) => void;
  /** A cluster left the registrations (or became Pull): its per-cluster state can go. */
  onRemoved?: (cluster: string) => void;
}

/**
 * Keeps one connection per Push-mode cluster registered in Git, reused from pass to pass while the
 * registration and its kubeconfig file stay the same; a changed kubeconfig (new token, new CA) reconnects.
 * A cluster whose kubeconfig is refused (outside the credentials folder, a plugin not allowed) or that cannot be
 * connected is logged once and handed on as a target that fails every request; the other clusters carry on.
 */
export class ClusterConnections {
  private readonly open = new Map<string, { key: string; target: KubeTarget }>();
  private readonly reported = new Set<string>();

  constructor(private readonly opts: ClusterConnectionOptions) {}

  async resolve(registrations: readonly ClusterRegistration[]): Promise<Map<string, KubeTarget>> {
    const wanted = registrations.filter((r) => r.syncMode === 'Push');
    const out = new Map<string, KubeTarget>();
    for (const reg of wanted) {
      const loaded = this.load(reg);
      if ('why' in loaded) {
        this.reportOnce(reg.name, `${reg.source}: Cluster ${reg.name}: ${loaded.why}; fix: ${loaded.fix}`);
        out.set(reg.name, this.unconnected(reg.name, `${loaded.why}; fix: ${loaded.fix}`));
        continue;
      }
      const key = loaded.fingerprint;
      const current = this.open.get(reg.name);
      if (current?.key === key) {
        out.set(reg.name, current.target);
        continue;
      }
      try {
        const context = loaded.kubeconfig.getCurrentContext();
        const target = await connectKubeTarget(loaded.kubeconfig, { context, name: reg.name });
        if (current) await current.target.close();
        this.open.set(reg.name, { key, target });
        this.reported.delete(reg.name);
        this.opts.log({
          step: 'clusters',
          cluster: reg.name,
          connected: target.server,
          kubeconfig: loaded.path,
          context,
        });
        out.set(reg.name, target);
      } catch (err) {
        this.reportOnce(reg.name, `${reg.source}: Cluster ${reg.name}: cannot connect (${(err as Error).message})`);
        out.set(reg.name, this.unconnected(reg.name, `cannot connect (${(err as Error).message})`));
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

  /**
   * A cluster no connection could be made for still takes part in the pass, every request failing at once: its status
   * turns NotReady (StatusCollectionFailed) after the failure threshold, as in Karmada, instead of staying what it was.
   * An open connection of an older kubeconfig is closed: its credentials are no longer the registration's.
   */
  private unconnected(name: string, why: string): KubeTarget {
    const current = this.open.get(name);
    if (current) {
      this.open.delete(name);
      void current.target.close();
    }
    return unconnectedTarget(name, why);
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((c) => c.target.close()));
    this.open.clear();
  }

  /** Read afresh every pass (a few small files): a rotated token or certificate reconnects. */
  private load(reg: ClusterRegistration): LoadedKubeconfig | KubeconfigProblem {
    const ref = reg.kubeconfigRef;
    const context = ref?.context ?? reg.name;
    const allowExec = this.opts.allowKubeconfigExec ?? false;
    if (ref?.path) return readKubeconfig({ root: this.opts.credentialsDir, file: ref.path, context, allowExec });
    if (this.opts.fallbackKubeconfig)
      return readKubeconfig({ root: undefined, file: this.opts.fallbackKubeconfig, context, allowExec });
    return {
      why: 'names no kubeconfig',
      fix: `set spec.kubeconfigRef {path, context}, or start flotilla run with --kubeconfig FILE holding a context named ${reg.name}`,
    };
  }

  /** A broken cluster is logged when it breaks, not on every pass. */
  private reportOnce(cluster: string, error: string): void {
    if (this.reported.has(cluster)) return;
    this.reported.add(cluster);
    this.opts.log({ step: 'clusters', cluster, skipped: error });
  }
}
