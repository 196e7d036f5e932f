import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { pauseAtRefLock } from '../commits/pauseAtRefLock.ts';
import { readKubeconfig } from '../credentials/readKubeconfig.ts';
import { connectKubeTarget } from '../deliveries/connectKubeTarget.ts';
import { openAgentSource, runAgentPass, startAgent, type AgentOptions } from '../pullAgent.ts';
import { UsageError } from '../errors/UsageError.ts';

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
  if (!Number.isFinite(opts.intervalSeconds) || opts.intervalSeconds <= 0)
    throw new UsageError(`--interval ${opts.intervalSeconds}: use a number of seconds above 0`);
  const context = opts.context ?? opts.cluster;
  // The operator's own file, named on the command line (no pull request chooses it): read where it is, and its
  // exec plugin may run. Its problems are described, never quoted.
  const loaded = readKubeconfig({ root: undefined, file: path.resolve(opts.kubeconfig), context, allowExec: true });
  if ('why' in loaded) {
    const fix = loaded.contexts ? `pass --context (it has ${loaded.contexts.join(', ') || 'none'})` : loaded.fix;
    throw new UsageError(`--kubeconfig: ${loaded.why}; fix: ${fix}`);
  }
  const kube = await connectKubeTarget(loaded.kubeconfig, { context, name: opts.cluster });
  try {
    // The status-commit pause point is the status commit after an apply, not the planned inventory written before it.
    let applied = false;
    const log = (entry: Record<string, unknown>) => {
      if (entry.step === 'apply') applied = true;
      opts.out(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
    };
    const fs = opts.pauseAtStatusCommit
      ? pauseAtRefLock(
          [`refs/heads/${opts.statusBranch}`],
          (ref) => log({ agent: opts.cluster, step: 'pause', at: 'status-commit', ref, pid: process.pid }),
          undefined,
          () => applied,
        )
      : undefined;
    const source = await openAgentSource(opts.repo, opts.cluster, opts.cacheDir, fs);
    const agent: AgentOptions = {
      cluster: opts.cluster,
      kube,
      source,
      renderedBranch: opts.renderedBranch,
      statusBranch: opts.statusBranch,
      log,
    };
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
