// The Pull-mode agent (Karmada's karmada-agent): runs beside one member cluster, reads only clusters/<name>/ of
// the rendered branch, applies it with the same applier as Push mode, and commits that member's status back.
// One pass, top to bottom: [fetch] -> apply -> collect status -> write status [-> push, rebuilt on a lost race].
import { CLUSTER_READY } from './api/conditions.ts';
import { describeFailures } from './deliveries/describeFailures.ts';
import { interpretersOfRendered } from './outputs/interpretersOfRendered.ts';
import { createHash } from 'node:crypto';
import type nodeFs from 'node:fs';
import path from 'node:path';
import { fetchBranch } from './commits/fetchBranch.ts';
import { openMirror } from './commits/openMirror.ts';
import { openRepo } from './commits/openRepo.ts';
import { readRef } from './commits/readRef.ts';
import { readRegisteredClusters } from './outputs/readRegisteredClusters.ts';
import { describeUnregistered, resourceModelsOf } from './branches/rendered/registeredClusters.ts';
import { pushBranch } from './commits/pushBranch.ts';
import { parseRemoteUrl, redactUrl, redactUrlsIn } from './commits/remoteUrl.ts';
import type { GitRepo } from './commits/types.ts';
import { createPassQueue } from './passes/createPassQueue.ts';
import { watchLocalRefs } from './passes/watchLocalRefs.ts';
import { applyRendered, type ClusterDelivery, type RenderedDelivery } from './deliveries/applyRendered.ts';
import type { KubeTarget } from './deliveries/KubeTarget.ts';
import type { ApplyAction } from './deliveries/types.ts';
import type { ClusterStatus } from './api/cluster.ts';
import { collectClusterStatus, memberAnswered } from './statuses/collectClusterStatus.ts';
import { writeStatus } from './statuses/writeStatus.ts';
import {
  collectExportedEndpoints,
  readMultiClusterServiceContext,
  serviceExportsOf,
} from './statuses/collectExportedEndpoints.ts';
import { HEARTBEAT_INTERVAL_MS } from './statuses/markMissingHeartbeats.ts';
import { RENDERED_BRANCH } from './branches/rendered/branch.ts';
import { STATUS_BRANCH } from './branches/status/branch.ts';
import { readObservedClusters } from './branches/status/readStatusBranch.ts';

/** Where the agent reads the rendered branch from and writes status to. */
export type AgentSource =
  /** A repository on this machine (bare or not): read and written in place, refs moved by compare-and-swap. */
  | { kind: 'local'; repo: GitRepo }
  /** A repository served over http(s): mirrored into a local bare repo, status pushed back. */
  | { kind: 'remote'; url: string; mirror: GitRepo };

export interface AgentOptions {
  /** The member this agent serves; only clusters/<cluster>/ is read. */
  cluster: string;
  kube: KubeTarget;
  source: AgentSource;
  /** Default flotilla/rendered. */
  renderedBranch?: string;
  /** Default flotilla/status. */
  statusBranch?: string;
  /** One structured entry per step; each names the rendered and source commit it worked from. */
  log: (entry: Record<string, unknown>) => void;
  /** Fetch-rebuild-push rounds when the remote status branch keeps moving. Default 5. */
  pushAttempts?: number;
  now?: () => Date;
}

export interface AgentPassResult {
  /** Everything in the folder applied, and status written (and pushed, for a remote). */
  ok: boolean;
  renderedCommit: string | null;
  sourceCommit: string | null;
  /** Objects per outcome on the member. */
  actions: Partial<Record<ApplyAction, number>>;
  statusCommit: string | null;
  /** Why the pass is not ok, one line each. */
  problems: string[];
  /**
   * The apply was skipped because the status branch held the cluster not Ready, and this pass's status left it Ready:
   * another pass applies now, as Karmada's execution controller syncs the Works it requeued once the cluster is Ready.
   */
  readyAgain?: true;
}

/**
 * `--repo` as given: an http(s) URL is mirrored under `cacheDir` (one mirror per URL and cluster, so two agents
 * never move each other's local refs); anything else is a local path.
 */
export async function openAgentSource(
  repo: string,
  cluster: string,
  cacheDir: string,
  fs?: typeof nodeFs,
): Promise<AgentSource> {
  if (!/^https?:\/\//i.test(repo)) return { kind: 'local', repo: await openRepo(repo, fs) };
  const url = new URL(repo);
  // Named after the address, not the credential: a rotated token keeps its mirror.
  const id = createHash('sha256').update(parseRemoteUrl(repo).url).digest('hex').slice(0, 12);
  const gitdir = path.join(cacheDir, `${url.host.replace(/[^\w.-]/g, '_')}-${id}-${cluster}.git`);
  return { kind: 'remote', url: repo, mirror: await openMirror(gitdir, repo) };
}

/** One pass. Never throws for a failure of the member, the repo or the network: it logs it and reports ok=false. */
export async function runAgentPass(opts: AgentOptions): Promise<AgentPassResult> {
  const renderedBranch = opts.renderedBranch ?? RENDERED_BRANCH;
  const statusBranch = opts.statusBranch ?? STATUS_BRANCH;
  const statusRef = `refs/heads/${statusBranch}`;
  const repo = opts.source.kind === 'local' ? opts.source.repo : opts.source.mirror;
  const result: AgentPassResult = {
    ok: false,
    renderedCommit: null,
    sourceCommit: null,
    actions: {},
    statusCommit: null,
    problems: [],
  };
  const log = (step: string, entry: Record<string, unknown>) =>
    opts.log({
      agent: opts.cluster,
      step,
      renderedCommit: result.renderedCommit,
      sourceCommit: result.sourceCommit,
      ...entry,
    });
  const fail = (step: string, err: unknown) => {
    const message = redactUrlsIn(err instanceof Error ? err.message : String(err));
    result.problems.push(`${step}: ${message}`);
    log(step, { error: message });
  };

  if (opts.source.kind === 'remote') {
    const started = performance.now();
    try {
      result.renderedCommit = await fetchBranch(repo, opts.source.url, renderedBranch);
      await fetchBranch(repo, opts.source.url, statusBranch);
      log('fetch', { url: redactUrl(opts.source.url), ms: Math.round(performance.now() - started) });
    } catch (err) {
      // No fresh copy: applying a stale one could undo what the reconciler did since. Try again next pass.
      fail('fetch', err);
      return result;
    }
  }

  // A name no rendered commit registers (a typo) must fail loudly, not pass as a cluster with nothing placed.
  const unregistered = await checkRegistered(repo, `refs/heads/${renderedBranch}`, opts.cluster).catch(() => undefined);
  if (unregistered) {
    fail('register', new Error(unregistered));
    return result;
  }

  let delivery: RenderedDelivery | null = null;
  let mine: ClusterDelivery | undefined;
  const started = performance.now();
  // Nothing rendered yet is how every repo starts (an agent may come up before the reconciler's first render):
  // nothing to apply and nothing wrong. The status below still reports the member.
  const renderedHead = await readRef(repo, `refs/heads/${renderedBranch}`).catch(() => undefined);
  const nothingRendered = renderedHead === null;
  // The customizations the render used, from the rendered branch: Lua Retain before updates, health and status after.
  const interpreters = renderedHead
    ? await interpretersOfRendered(repo, renderedHead).catch(() => undefined)
    : undefined;
  if (nothingRendered) {
    log('apply', {
      cluster: opts.cluster,
      writes: 0,
      waiting: `nothing rendered yet (${renderedBranch} does not exist); the reconciler's first render creates it`,
    });
  } else {
    try {
      const source = opts.source;
      delivery = await applyRendered({
        repo,
        outputRef: `refs/heads/${renderedBranch}`,
        ...(renderedHead ? { commit: renderedHead } : {}),
        ...(interpreters ? { interpreters } : {}),
        statusRef,
        clusters: new Map([[opts.cluster, opts.kube]]),
        ...(opts.now ? { now: opts.now } : {}),
        // The planned inventory must reach the remote before the apply: the next fetch replaces the local branch.
        ...(source.kind === 'remote'
          ? {
              recordPlanned: (write: () => Promise<{ commit: string | null }>) =>
                pushStatus(source, statusBranch, opts.pushAttempts ?? 5, write, log, 'planned inventory'),
            }
          : {}),
      });
      mine = delivery.clusters.get(opts.cluster);
      result.renderedCommit = delivery.renderedCommit;
      result.sourceCommit = delivery.sourceCommit ?? null;
      for (const r of mine?.results ?? []) result.actions[r.action] = (result.actions[r.action] ?? 0) + 1;
      result.problems.push(...describeFailures(mine?.results ?? []));
      for (const note of mine?.notes ?? []) if (note.startsWith('apply failed')) result.problems.push(note);
      log('apply', {
        cluster: opts.cluster,
        writes: mine?.writes ?? 0,
        ...result.actions,
        // What failed and why, where an operator reads first: the log, not only the status branch.
        ...(result.problems.length ? { problems: result.problems.slice(0, 20) } : {}),
        ...(mine?.notes.length ? { notes: mine.notes } : {}),
        ms: Math.round(performance.now() - started),
      });
    } catch (err) {
      fail('apply', err);
    }
  }

  // Graded by the models the rendered commit registers for this cluster (Karmada's defaults when it has none).
  const registered = renderedHead ? await readRegisteredClusters(repo, renderedHead).catch(() => undefined) : undefined;
  const resourceModels = resourceModelsOf(registered?.find((c) => c.name === opts.cluster));
  let unreachable: string | undefined;
  const status: ClusterStatus | undefined = await collectClusterStatus(opts.kube, {
    resourceModels,
    onUnreachable: (detail) => {
      unreachable = detail;
    },
  }).catch(() => undefined);
  const reachable = memberAnswered(status);
  // The status still goes out (it records the member not answering), but the pass did not do its job: --once exits 1.
  if (!reachable) {
    const ready = status?.conditions?.find((c) => c.type === CLUSTER_READY);
    const why = `${ready ? `: ${ready.reason}: ${ready.message}` : ''}${unreachable ? ` (${unreachable})` : ''}`;
    fail('member', new Error(`the member did not answer${why}`));
  }
  // The member's exported Services' slices go to the status branch, from where every importer's applier reads them.
  const mcs = delivery ? await readMultiClusterServiceContext(repo, delivery.renderedCommit, statusRef) : undefined;
  const exports =
    mine && reachable
      ? await collectExportedEndpoints(opts.kube, serviceExportsOf(mine.inventory, opts.cluster, mcs))
      : undefined;
  const report = {
    cluster: opts.cluster,
    ...(status ? { status } : {}),
    ...(mine ? { delivery: mine } : {}),
    ...(exports ? { exports } : {}),
  };
  const write = () =>
    writeStatus({
      repo,
      statusRef,
      reports: [report],
      ...(opts.now ? { now: opts.now } : {}),
      // The reconciler marks this cluster Ready=Unknown when the heartbeat stops (Karmada's lease, in Git).
      clusterOptions: { heartbeatMs: HEARTBEAT_INTERVAL_MS },
      ...(interpreters ? { interpreters } : {}),
      ...(delivery ? { renderedCommit: delivery.renderedCommit } : {}),
      ...(delivery?.sourceCommit ? { sourceCommit: delivery.sourceCommit } : {}),
    });
  try {
    if (opts.source.kind === 'local') {
      // writeStatus re-reads and re-merges on every lost compare-and-swap, so the reconciler's updates survive.
      const written = await write();
      result.statusCommit = written.commit;
      if (written.commit)
        log('status', { statusCommit: written.commit, paths: written.changedPaths.length, attempts: written.attempts });
    } else {
      result.statusCommit = await pushStatus(opts.source, statusBranch, opts.pushAttempts ?? 5, write, log);
    }
  } catch (err) {
    fail('status', err);
  }
  if (mine?.notReady && result.statusCommit) {
    const observed = await readObservedClusters(repo, statusRef).catch(() => undefined);
    const ready = observed?.get(opts.cluster)?.status?.conditions?.find((c) => c.type === CLUSTER_READY);
    if (ready?.status === 'True') result.readyAgain = true;
  }
  result.ok = (delivery !== null || nothingRendered) && result.problems.length === 0;
  return result;
}

/** Why `cluster` cannot be served from the rendered branch's head, with the fix; undefined when it can (or nothing says). */
async function checkRegistered(repo: GitRepo, renderedRef: string, cluster: string): Promise<string | undefined> {
  const head = await readRef(repo, renderedRef);
  const registered = head ? await readRegisteredClusters(repo, head) : undefined;
  const why = registered ? describeUnregistered(cluster, registered) : undefined;
  return (
    why &&
    `${why}; fix: pass --cluster with a registered name, or register it (flotilla join ${cluster} --kubeconfig FILE) and let the reconciler render`
  );
}

/**
 * Commit on the remote's tip and push; when someone else pushed in between (the reconciler writing its members'
 * status), fetch their commit and rebuild ours on top of it. Bounded: a branch that never stops moving fails the pass.
 */
async function pushStatus(
  source: Extract<AgentSource, { kind: 'remote' }>,
  branch: string,
  attempts: number,
  write: () => Promise<{ commit: string | null; changedPaths?: string[] }>,
  log: (step: string, entry: Record<string, unknown>) => void,
  what: 'status' | 'planned inventory' = 'status',
): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    // The first round builds on the tip fetched at the start of the pass.
    if (attempt > 1) await fetchBranch(source.mirror, source.url, branch);
    const written = await write();
    if (!written.commit) return null;
    const outcome = await pushBranch(source.mirror, source.url, branch);
    log('push', {
      ...(what === 'status' ? {} : { what }),
      statusCommit: written.commit,
      outcome,
      attempt,
      ...(written.changedPaths ? { paths: written.changedPaths.length } : {}),
    });
    if (outcome === 'pushed') return written.commit;
    if (attempt >= attempts)
      throw new Error(
        `${branch} on ${redactUrl(source.url)} moved on each of ${attempts} pushes; fix: nothing to do, the next pass tries again`,
      );
  }
}

export interface RunningAgent {
  /** Runs a pass now (or, during one, queues one more, shared by every such call) and resolves with the newest pass's result. */
  pass(): Promise<AgentPassResult>;
  /** Stops the triggers and waits for a running pass to end. */
  stop(): Promise<void>;
}

/**
 * Starts the agent loop: a pass now, every `intervalMs`, and, for a local repository, whenever the rendered branch
 * moves. Passes never overlap; triggers during a pass queue one more (the reconciler's single-flight queue).
 */
export async function startAgent(opts: AgentOptions & { intervalMs: number }): Promise<RunningAgent> {
  // The queue settles a kick once its pass is over; the pass's result (or failure) is kept here for pass() to return.
  let last!: Promise<AgentPassResult>;
  const queue = createPassQueue(() => {
    last = runAgentPass(opts);
    return last.then((result) => {
      // Queued behind this pass by the queue itself: the next pass starts as soon as this one ends.
      if (result.readyAgain && !stopped) void pass();
    });
  });
  let stopped = false;
  const pass = async (): Promise<AgentPassResult> => {
    await queue.kick('agent');
    return last;
  };

  const closers: (() => Promise<void> | void)[] = [];
  if (opts.source.kind === 'local') {
    // The agent's own status writes land beside the rendered ref: only the rendered branch is a trigger.
    const watcher = await watchLocalRefs(
      opts.source.repo.gitdir,
      opts.renderedBranch ?? RENDERED_BRANCH,
      () => void pass(),
    );
    closers.push(() => watcher.close());
  }
  const timer = setInterval(() => void pass(), opts.intervalMs);
  closers.push(() => clearInterval(timer));
  void pass();
  return {
    pass,
    async stop() {
      if (stopped) return;
      stopped = true;
      // No pass starts after this call, not even one a trigger queued before it.
      const drained = queue.stop();
      for (const close of closers.reverse()) await close();
      await drained;
    },
  };
}
