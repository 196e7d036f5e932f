import { existsSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import cron from 'node-cron';
import { pauseAtRefLock } from '../commits/pauseAtRefLock.ts';
import { LockHeldError } from '../passes/acquireRepoLock.ts';
import { durationFlagMs } from './durationFlag.ts';
import { defaultMirrorDir, redactUrl } from '../passes/remoteMirror.ts';
import { startReconciler, type ReconcilerSource } from '../passes/startReconciler.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';
import { commitStatusHook } from '../commitStatuses/commitStatusHook.ts';
import type { ForgeConfig } from '../commitStatuses/types.ts';
import { parseRenderLimits } from './renderLimitFlags.ts';
import { parseAutoscalerFlags, type AutoscalerFlagValues } from './autoscalerFlags.ts';
import { parseListen, RUN_OPTIONS, RUN_USAGE, type FaultPausePoint } from './runOptions.ts';
import { UsageError } from '../errors/UsageError.ts';
import { progressPrinter, type LogFormat } from './progressLine.ts';
import { exposedWithoutToken, isLoopbackHost } from '../dashboard/checkUiAccess.ts';
import { createDashboard, refusingDashboard, type Dashboard } from '../dashboard/createDashboard.ts';
import { checkTimings } from '../leases/electionStep.ts';
import { connectHostCluster, describeHostCluster, type HostClusterSource } from '../leases/connectHostCluster.ts';
import { kubeLeaseClient } from '../leases/LeaseClient.ts';
import type { LeaderElectionOptions } from '../passes/replicaCoordination.ts';
import { replicaLeaseName } from '../shards/planClaims.ts';

export interface RunOptions {
  repo: string | undefined;
  /**
   * --repo-env: the variable holding the repo's URL, and its value. A URL carrying a token stays out of the
   * process's arguments, which anyone who can list processes on the host reads.
   */
  repoEnv?: { name: string; value: string | undefined };
  sourceBranch: string;
  credentialsDir: string | undefined;
  kubeconfig: string | undefined;
  /**
   * Let a kubeconfig user run a command for its credentials (user.exec), as Flux's flag of that name. Off by
   * default: whoever changes the repo chooses which kubeconfig and context a Cluster uses.
   */
  insecureKubeconfigExec?: boolean;
  listen: string;
  resync: string;
  fetchSchedule: string;
  webhookSecretEnv: string | undefined;
  /** The value of that variable, read by cli.ts (the only reader of the environment). */
  webhookSecret: string | undefined;
  mirrorDir: string | undefined;
  /**
   * The dashboard's token (the value of --ui-token-env, read by cli.ts): required from every /ui request. Without
   * it the dashboard is served on a loopback --listen only.
   */
  uiTokenEnv?: string | undefined;
  uiToken?: string | undefined;
  /** How long a cluster must be seen not ready before Ready flips to False (Karmada's flag of that name); default 30s. */
  clusterFailureThreshold?: string;
  /** How long a cluster must be seen ready again before Ready flips back to True; default 30s. */
  clusterSuccessThreshold?: string;
  /** Status passes (probe, read back, write status; no apply) every this long (Karmada's flag of that name); default 10s, 0 = none. */
  clusterStatusUpdateFrequency?: string;
  /** A graceful eviction task without its own grace period ends after this long (Karmada's flag of that name); default 10m. */
  gracefulEvictionTimeout?: string;
  /** --horizontal-pod-autoscaler-* as given; absent: Karmada's defaults. */
  autoscaler?: AutoscalerFlagValues;
  /** --max-source-files and --max-output-bytes as given; absent: the defaults (sourceLimits.ts). */
  maxSourceFiles?: string | undefined;
  maxOutputBytes?: string | undefined;
  /** Commit statuses per cluster after each apply, with the token cli.ts read from the environment. */
  forge?: { config: ForgeConfig; token: string } | undefined;
  cwd: string;
  /** One JSON line per entry, or with logFormat text one progress line per step that did something. */
  out: (s: string) => void;
  /** Default json (what scripts read); cli.ts picks text when stdout is a terminal. */
  logFormat?: LogFormat;
  err: (s: string) => void;
  stopSignal: Promise<void>;
  /**
   * Testing knob (FLOTILLA_FAULT_PAUSE_AT, read by cli.ts): stop for good at that point of the first pass that
   * reaches it, objects written and ref not moved, so the reliability suite can kill -9 the process exactly there.
   */
  pauseAt?: FaultPausePoint | undefined;
  /** --leader-elect and its settings (Karmada's flag names and defaults). */
  leaderElect?: {
    leaseDuration?: string | undefined;
    renewDeadline?: string | undefined;
    retryPeriod?: string | undefined;
    namespace?: string | undefined;
    kubeconfig?: string | undefined;
    context?: string | undefined;
    /** --id; default the host name. */
    id?: string | undefined;
    /** KUBERNETES_SERVICE_HOST and _PORT, read by cli.ts: the in-cluster config when no kubeconfig is named. */
    inCluster?: { host: string; port: string } | undefined;
  };
}

/** A duration flag in milliseconds; absent: the flag's default in RUN_OPTIONS. */
function durationFlag(flag: keyof typeof RUN_OPTIONS & string, value: string | undefined): number {
  return durationFlagMs(flag, value ?? (RUN_OPTIONS[flag] as { default?: string }).default ?? '');
}

/**
 * `flotilla run`: the reconciler as a long-running process. Exit 0 after a clean stop (SIGINT/SIGTERM), 2 when
 * the arguments are wrong or another reconciler already holds the repo.
 */
export async function runCommand(given: RunOptions): Promise<number> {
  const opts = { ...given, repo: repoFromOptions(given) };
  if (!opts.repo) throw new UsageError(`--repo is required\n${RUN_USAGE}`);
  const resyncMs = durationFlag('resync', opts.resync);
  const listen = parseListen(opts.listen);
  const failureMs = durationFlag('cluster-failure-threshold', opts.clusterFailureThreshold);
  const successMs = durationFlag('cluster-success-threshold', opts.clusterSuccessThreshold);
  const statusEveryMs = durationFlag('cluster-status-update-frequency', opts.clusterStatusUpdateFrequency);
  const graceMs = durationFlag('graceful-eviction-timeout', opts.gracefulEvictionTimeout);
  if (graceMs < 1000)
    throw new UsageError(
      `--graceful-eviction-timeout ${opts.gracefulEvictionTimeout}: must be at least 1s (a task needs a grace period); write it like 10m`,
    );
  const autoscalerOptions = parseAutoscalerFlags(opts.autoscaler ?? {});
  const renderLimits = parseRenderLimits({
    'max-source-files': opts.maxSourceFiles,
    'max-output-bytes': opts.maxOutputBytes,
  });
  if (opts.webhookSecretEnv && !opts.webhookSecret) {
    throw new UsageError(
      `--webhook-secret-env ${opts.webhookSecretEnv}: that variable is unset or empty; fix: export ${opts.webhookSecretEnv}=<the secret configured on the forge's webhook>`,
    );
  }
  if (opts.uiTokenEnv && !opts.uiToken)
    throw new UsageError(
      `--ui-token-env ${opts.uiTokenEnv}: that variable is unset or empty; fix: export ${opts.uiTokenEnv}=$(openssl rand -hex 32)`,
    );
  if (opts.webhookSecret && !listen)
    throw new UsageError('--webhook-secret-env needs an HTTP endpoint; drop --listen off');
  const remote = /^https?:\/\//i.test(opts.repo);
  if (!remote && /^[a-z+]+:\/\/|^[^/]+@[^/]+:/i.test(opts.repo)) {
    throw new UsageError(
      `--repo ${redactUrl(opts.repo)}: only local paths and http(s) URLs are supported (smart HTTP through isomorphic-git); fix: use the https:// URL of the repo, or a local clone`,
    );
  }
  if (remote && !cron.validate(opts.fetchSchedule))
    throw new UsageError(
      `--fetch-schedule "${opts.fetchSchedule}" is not a cron expression; write it like "* * * * *" (every minute) or "*/5 * * * *"`,
    );
  const credentialsDir = path.resolve(opts.cwd, opts.credentialsDir ?? '.');
  if (!remote) {
    const clash = credentialsClash(path.resolve(opts.cwd, opts.repo), credentialsDir);
    if (clash)
      throw new UsageError(
        `--credentials-dir ${credentialsDir}${opts.credentialsDir ? '' : ' (the default, the working directory)'} ${clash}; fix: pass --credentials-dir naming a folder that holds only kubeconfigs, outside the clone (or reconcile a bare repo)`,
      );
  }
  const election = opts.leaderElect ? await leaderElection(opts) : undefined;
  const source: ReconcilerSource = remote
    ? {
        kind: 'remote',
        url: opts.repo,
        mirrorDir: path.resolve(opts.cwd, opts.mirrorDir ?? defaultMirrorDir('.flotilla/mirrors', opts.repo)),
        fetchSchedule: opts.fetchSchedule,
      }
    : { kind: 'local', path: path.resolve(opts.cwd, opts.repo) };

  // The status-commit pause point is the status commit after an apply, not the planned inventory written before it.
  let applied = false;
  const print =
    opts.logFormat === 'text'
      ? progressPrinter(opts.out, () => `${new Date().toTimeString().slice(0, 8)} `)
      : (entry: Record<string, unknown>) =>
          opts.out(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  const log = (entry: Record<string, unknown>) => {
    if (entry.step === 'apply') applied = true;
    print(entry);
  };
  const pauseRef = opts.pauseAt && `refs/heads/${opts.pauseAt === 'output-commit' ? RENDERED_BRANCH : STATUS_BRANCH}`;
  // The dashboard reads the repo the reconciler opens (for a remote, its mirror), so it starts once that exists.
  let dashboard: Pick<Dashboard, 'handle'> | undefined =
    listen && !isLoopbackHost(listen.host) && !opts.uiToken
      ? refusingDashboard(exposedWithoutToken(opts.listen))
      : undefined;
  let reconciler;
  try {
    reconciler = await startReconciler({
      routes: (req, res) => dashboard?.handle(req, res) ?? Promise.resolve(false),
      source,
      sourceBranch: opts.sourceBranch,
      clusters: {
        kind: 'registered',
        credentialsDir,
        fallbackKubeconfig: opts.kubeconfig ? path.resolve(opts.cwd, opts.kubeconfig) : undefined,
        allowKubeconfigExec: opts.insecureKubeconfigExec ?? false,
      },
      resyncMs,
      readyThresholds: { failureMs, successMs },
      statusUpdateFrequencyMs: statusEveryMs,
      gracefulEvictionTimeoutSeconds: Math.round(graceMs / 1000),
      autoscalerOptions,
      ...(Object.keys(renderLimits).length > 0 ? { renderLimits } : {}),
      ...(listen ? { listen } : {}),
      ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
      ...(election ? { leaderElection: election } : {}),
      ...(opts.forge ? { afterApply: commitStatusHook(opts.forge.config, opts.forge.token, log) } : {}),
      ...(pauseRef
        ? {
            fs: pauseAtRefLock(
              [pauseRef],
              (ref) => log({ step: 'pause', at: opts.pauseAt, ref, pid: process.pid }),
              undefined,
              () => opts.pauseAt !== 'status-commit' || applied,
            ),
          }
        : {}),
      log,
    });
  } catch (err) {
    if (err instanceof LockHeldError) {
      opts.err(`flotilla: ${err.message}\n`);
      return 2;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(
        `--listen ${opts.listen}: that address is in use; fix: pick another port, e.g. --listen 127.0.0.1:0 for any free one`,
      );
    throw err;
  }
  let ui: Dashboard | undefined;
  if (listen && !dashboard) {
    try {
      ui = await createDashboard({
        gitdir: reconciler.repo.gitdir,
        sourceBranch: opts.sourceBranch,
        ...(opts.uiToken ? { token: opts.uiToken } : {}),
        ...(Object.keys(renderLimits).length > 0 ? { limits: renderLimits } : {}),
        log,
      });
    } catch (err) {
      // A reconciler left running would keep the process up, half started, after the command has failed.
      await reconciler.stop();
      throw err;
    }
    dashboard = ui;
  }
  const where = remote ? redactUrl(opts.repo) : source.kind === 'local' ? source.path : '';
  opts.err(
    `flotilla run: reconciling ${where} (${opts.sourceBranch}), pid ${process.pid}` +
      `${election ? `, replica ${election.identity} (Leases in ${election.namespace} via ${election.describe})` : ''}` +
      `${reconciler.url ? `; ${reconciler.url}/healthz /readyz /metrics${opts.webhookSecret ? ' and POST /hooks/{github,gitlab,gitea,generic}' : ''}` : ''}; Ctrl-C stops\n`,
  );
  if (reconciler.url)
    opts.err(
      ui
        ? `flotilla run: dashboard at ${reconciler.url}/ui/${opts.uiToken ? ` (open /ui/?token=<the value of ${opts.uiTokenEnv}> once)` : ''}\n`
        : `flotilla run: no dashboard: ${exposedWithoutToken(opts.listen)}\n`,
    );
  void reconciler.kick('start');
  await opts.stopSignal;
  await ui?.close();
  await reconciler.stop();
  log({ step: 'stop', pid: process.pid });
  return 0;
}

/** The Lease settings of --leader-elect, checked, and a client on the host cluster. */
async function leaderElection(opts: RunOptions): Promise<LeaderElectionOptions> {
  const le = opts.leaderElect!;
  const timings = {
    leaseDurationMs: durationFlag('leader-elect-lease-duration', le.leaseDuration),
    renewDeadlineMs: durationFlag('leader-elect-renew-deadline', le.renewDeadline),
    retryPeriodMs: durationFlag('leader-elect-retry-period', le.retryPeriod),
  };
  const bad = checkTimings(timings);
  if (bad) throw new UsageError(`--leader-elect: ${bad}`);
  const identity = le.id ?? hostname();
  // The replica's own Lease is named after it: a Kubernetes object name (RFC 1123 subdomain).
  const name = replicaLeaseName(identity);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(name) || name.length > 253)
    throw new UsageError(
      `--id ${JSON.stringify(identity)}: names the replica's Lease ${name}, which must be lowercase letters, digits, '-' and '.'; fix: pass --id like flotilla-0 (a pod name is fine)`,
    );
  const namespace = le.namespace ?? 'flotilla-system';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace) || namespace.length > 63)
    throw new UsageError(
      `--leader-elect-resource-namespace ${namespace}: not a namespace name; fix: e.g. flotilla-system`,
    );
  let host: HostClusterSource;
  if (le.kubeconfig) host = { kind: 'kubeconfig', file: path.resolve(opts.cwd, le.kubeconfig), context: le.context };
  else if (le.context) throw new UsageError('--leader-elect-context needs --leader-elect-kubeconfig FILE');
  else if (le.inCluster) host = { kind: 'in-cluster', ...le.inCluster };
  else
    throw new UsageError(
      '--leader-elect needs the host cluster that keeps the Leases: run in a pod (KUBERNETES_SERVICE_HOST and its service account), or pass --leader-elect-kubeconfig FILE [--leader-elect-context C]',
    );
  let kube;
  try {
    kube = await connectHostCluster(host);
  } catch (err) {
    throw new UsageError(`--leader-elect: cannot use ${describeHostCluster(host)}: ${(err as Error).message}`);
  }
  return { client: kubeLeaseClient(kube), namespace, identity, timings, describe: describeHostCluster(host) };
}

/**
 * Why `credentialsDir` must not be used with the local repo at `repo`: kubeconfigRef paths are confined to the
 * credentials folder, and a clone's working tree holds whatever a change brings (a kubeconfig, with an exec
 * plugin). Undefined when they do not overlap.
 */
/** The repo named by --repo, or read from the variable --repo-env names; never both. */
function repoFromOptions(opts: RunOptions): string | undefined {
  if (!opts.repoEnv) return opts.repo;
  if (opts.repo !== undefined)
    throw new UsageError(
      `--repo and --repo-env ${opts.repoEnv.name} both name the repo; fix: keep one (--repo-env keeps a token out of the process's arguments)`,
    );
  if (!opts.repoEnv.value)
    throw new UsageError(
      `--repo-env ${opts.repoEnv.name}: that variable is unset or empty; fix: export ${opts.repoEnv.name}=https://USER:TOKEN@host/org/fleet.git (or a local path)`,
    );
  return opts.repoEnv.value;
}

function credentialsClash(repo: string, credentialsDir: string): string | undefined {
  if (!existsSync(path.join(repo, '.git'))) return undefined; // bare: no files a change can bring
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const [tree, creds] = [real(repo), real(credentialsDir)];
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}${path.sep}`);
  if (inside(creds, tree)) return `is inside the working tree of ${tree}, whose files a pushed change writes`;
  if (inside(tree, creds)) return `holds the working tree of ${tree}, whose files a pushed change writes`;
  return undefined;
}
