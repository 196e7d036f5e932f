// What `flotilla run` takes: its usage, its flags (--listen read by parseListen, which flotilla ui shares) and the fault
// suite's pause points, apart from the reconciler so that `flotilla run --help`, and a mistyped flag, answer without
// loading it (the Git transport, the Kubernetes client).
import { AUTOSCALER_FLAG_OPTIONS, AUTOSCALER_FLAGS_USAGE } from './autoscalerFlags.ts';
import { FORGE_ARG_OPTIONS, FORGE_HELP } from './parseForgeOptions.ts';
import { RENDER_LIMIT_OPTIONS } from './renderLimitFlags.ts';
import { UsageError } from '../errors/UsageError.ts';

export const DEFAULT_LISTEN = '127.0.0.1:9464';

export const RUN_USAGE = `usage: flotilla run --repo PATH|URL|--repo-env VAR [--source-branch main] [--credentials-dir DIR] [--kubeconfig FILE]
       [--insecure-kubeconfig-exec] [--log-format text|json (default: text on a terminal, else json)]
       [--listen ${DEFAULT_LISTEN}|HOST:PORT|off] [--resync 5m|0] [--fetch-schedule "* * * * *"]
       [--webhook-secret-env VAR] [--ui-token-env VAR] [--mirror-dir DIR] [--cluster-failure-threshold 30s] [--cluster-success-threshold 30s]
       [--cluster-status-update-frequency 10s|0] [--graceful-eviction-timeout 10m]
       ${AUTOSCALER_FLAGS_USAGE}
       [--max-source-files 50000] [--max-output-bytes 512Mi]
       [--forge github|gitlab|gitea --forge-repo REPO [--forge-url URL] [--forge-token-env VAR] [--forge-target-url URL]]
       [--leader-elect [--leader-elect-lease-duration 15s] [--leader-elect-renew-deadline 10s]
        [--leader-elect-retry-period 2s] [--leader-elect-resource-namespace flotilla-system]
        [--leader-elect-kubeconfig FILE [--leader-elect-context C]] [--id NAME]]

--repo-env VAR reads the repo's path or URL from the variable VAR instead of --repo, so a URL's token
(https://USER:TOKEN@host/org/fleet.git) stays out of the process's arguments.

--leader-elect runs this process as one replica of several on the same repo: the Lease flotilla-leader (in the
namespace above, on the host cluster: --leader-elect-kubeconfig, else the pod's service account) names the one
that renders, and each replica applies the Push clusters of its shard (Lease flotilla-replica-<id>). --id names
the replica (default: the host name, i.e. the pod name).

--horizontal-pod-autoscaler-* are karmada-controller-manager's FederatedHPA flags, with its defaults: how often each
FederatedHPA is evaluated, the tolerance of the metric's ratio to its target, the scale-down stabilization window,
and for CPU the initialization period and initial readiness delay of a new pod.

--max-source-files and --max-output-bytes bound what one render reads and writes (a commit past them is refused
with COMMIT_TOO_LARGE); raise them for a fleet larger than about 10,000 templates on 100 clusters.

${FORGE_HELP}`;

/** The `parseArgs` options of `flotilla run`; cli.ts parses, this module interprets. */
export const RUN_OPTIONS = {
  repo: { type: 'string' },
  'repo-env': { type: 'string' },
  'source-branch': { type: 'string', default: 'main' },
  'credentials-dir': { type: 'string' },
  kubeconfig: { type: 'string' },
  'insecure-kubeconfig-exec': { type: 'boolean', default: false },
  listen: { type: 'string', default: DEFAULT_LISTEN },
  resync: { type: 'string', default: '5m' },
  'fetch-schedule': { type: 'string', default: '* * * * *' },
  'webhook-secret-env': { type: 'string' },
  'ui-token-env': { type: 'string' },
  'mirror-dir': { type: 'string' },
  'log-format': { type: 'string' },
  'cluster-failure-threshold': { type: 'string', default: '30s' },
  'cluster-success-threshold': { type: 'string', default: '30s' },
  'cluster-status-update-frequency': { type: 'string', default: '10s' },
  'graceful-eviction-timeout': { type: 'string', default: '10m' },
  ...AUTOSCALER_FLAG_OPTIONS,
  ...RENDER_LIMIT_OPTIONS,
  ...FORGE_ARG_OPTIONS,
  'leader-elect': { type: 'boolean', default: false },
  'leader-elect-lease-duration': { type: 'string', default: '15s' },
  'leader-elect-renew-deadline': { type: 'string', default: '10s' },
  'leader-elect-retry-period': { type: 'string', default: '2s' },
  'leader-elect-resource-namespace': { type: 'string', default: 'flotilla-system' },
  'leader-elect-kubeconfig': { type: 'string' },
  'leader-elect-context': { type: 'string' },
  id: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const FAULT_PAUSE_POINTS = ['output-commit', 'status-commit'] as const;
export type FaultPausePoint = (typeof FAULT_PAUSE_POINTS)[number];

/** `HOST:PORT`, `[::1]:PORT`, `:PORT`, `PORT`, or `off`. */
export function parseListen(
  text: string,
  // The command's own default, and whether it may listen nowhere: flotilla ui's differ from run's.
  usage: { defaultListen: string; off: boolean } = { defaultListen: DEFAULT_LISTEN, off: true },
): { host: string; port: number } | null {
  if (text === 'off' && usage.off) return null;
  const m = /^(?:(?:\[([^\]]+)\]|([^:[\]]*)):)?(\d+)$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || !Number.isInteger(port) || port > 65535)
    throw new UsageError(
      `--listen ${text}: write HOST:PORT (default ${usage.defaultListen}; port 0 = any free port)${usage.off ? ' or off' : ''}`,
    );
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}
