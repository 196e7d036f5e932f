import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { pauseAtRefLock } from '../commits/pauseAtRefLock.ts';
import { connectKubeTarget } from '../deliveries/connectKubeTarget.ts';
import { openAgentSource, runAgentPass, startAgent, type AgentOptions } from '../pullAgent.ts';
import { UsageError } from './UsageError.ts';

export interface AgentCommandOptions {
  cluster: string;
  /** A local path (bare or not) or an http(s) URL. */
  repo: string;
  kubeconfig: string;
  /** Default: the cluster name. */
  context: string | undefined;
  renderedBranch: string;
  statusBranch: string;
  intervalSeconds: number;
  once: boolean;
  /** Where URL mirrors live. */
  cacheDir: string;
  out: (s: string) => void;
  /** Resolves on SIGINT/SIGTERM. */
  stopSignal: Promise<void>;
  /**
   * Testing knob (FLOTILLA_FAULT_PAUSE_AT=status-commit, read by cli.ts): stop for good with the status objects
   * written and the status ref locked, not moved, so the reliability suite can kill -9 the agent exactly there.
   */
  pauseAtStatusCommit?: boolean;
}

/**
 * `flotilla agent`: the Pull-mode agent for one member. Logs one JSON line per step to stdout. With --once, one
 * pass: exit 0 when everything in the cluster's folder applied and its status was written, 1 otherwise.
 */
export async function agentCommand(opts: AgentCommandOptions): Promise<number> {
  if (!Number.isFinite(opts.intervalSeconds) || opts.intervalSeconds <= 0) throw new UsageError(`--interval ${opts.intervalSeconds}: use a number of seconds above 0`);
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(opts.kubeconfig);
  } catch (err) {
    throw new UsageError(`--kubeconfig ${opts.kubeconfig}: ${(err as Error).message}; fix: pass a readable kubeconfig file (flotilla up writes members.config)`);
  }
  const context = opts.context ?? opts.cluster;
  if (!kc.getContexts().some((c) => c.name === context)) {
    throw new UsageError(`--kubeconfig ${opts.kubeconfig} has no context "${context}" (it has ${kc.getContexts().map((c) => c.name).join(', ') || 'none'}); fix: pass --context`);
  }
  const kube = await connectKubeTarget(kc, { context, name: opts.cluster });
  try {
    // The status-commit pause point is the status commit after an apply, not the planned inventory written before it.
    let applied = false;
    const log = (entry: Record<string, unknown>) => {
      if (entry.step === 'apply') applied = true;
      opts.out(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
    };
    const fs = opts.pauseAtStatusCommit
      ? pauseAtRefLock([`refs/heads/${opts.statusBranch}`], (ref) => log({ agent: opts.cluster, step: 'pause', at: 'status-commit', ref, pid: process.pid }), undefined, () => applied)
      : undefined;
    const source = await openAgentSource(opts.repo, opts.cluster, opts.cacheDir, fs);
    const agent: AgentOptions = { cluster: opts.cluster, kube, source, renderedBranch: opts.renderedBranch, statusBranch: opts.statusBranch, log };
    if (opts.once) return (await runAgentPass(agent)).ok ? 0 : 1;
    const running = await startAgent({ ...agent, intervalMs: opts.intervalSeconds * 1000 });
    await opts.stopSignal;
    await running.stop();
    return 0;
  } finally {
    await kube.close();
    // isomorphic-git's HTTP client uses node's global keep-alive agents; idle sockets would hold the process ~5 s.
    http.globalAgent.destroy();
    https.globalAgent.destroy();
  }
}
