// argv -> options -> one command. The only module that reads process.env, prints usage, or exits.
import { parseArgs } from 'node:util';
import { parseRenderLimits, RENDER_LIMIT_OPTIONS, RENDER_LIMITS_HELP } from './commands/renderLimitFlags.ts';
import { UsageError } from './errors/UsageError.ts';
import { COMMAND_FLAGS, flagProblem, type SharedParserCommand } from './commands/commandFlags.ts';
import { CLUSTER_OPERATIONS, type ClusterOperation } from './commands/clusterOperations.ts';
import { redactUrlsIn } from './commits/remoteUrl.ts';
import { openRepo } from './commits/openRepo.ts';
import { readableBranchRef } from './commits/readRef.ts';
import { repoAround } from './commits/repoAround.ts';
import { terminalSafe } from './text/terminalSafe.ts';
import { RENDERED_BRANCH } from './branches/rendered/branch.ts';
import { STATUS_BRANCH } from './branches/status/branch.ts';
import { configureToolSearch } from './units/unitTools.ts';

const HELP = `flotilla — run one application across many Kubernetes clusters, steered from Git.

Usage: flotilla <command> [options]

Commands:
  validate   Check every config file at a commit; list every problem with file:line and a fix.
  render     Render a commit to the output branch (or --out-dir).
  sync       Render every source commit not rendered yet, each against the previous one.
  explain    Why a template went where it went: the policy that won, and per cluster the
             filter that rejected it or the replicas it got.
  up         The local demo: three member clusters, a config repo, the reconciler, nginx propagated
             (--dir DIR, default .flotilla/demo; --exit to stop after the check; --log-format text|json).
  run        The reconciler: watch (local) or fetch (remote URL) the config repo, render, apply to the
             Push clusters registered in Git, commit status; /healthz /readyz /metrics and webhooks
             (flotilla run --help).
  plan       What a change (--base REV --head REV) does on each cluster: added, changed, removed,
             replica moves, prune safety (-o markdown for a PR comment, -o json or yaml for bots).
  verify     Re-render the source and compare the output branch byte for byte.
  history    The source commits that changed what <kind>/<name> became on each cluster.
  reschedule Commit a WorkloadRebalancer for <kind>/<name> [-n NS] [--reason R] [--branch B, default
             main]: the next sync schedules it afresh (fresh mode), once.
  join       Register a member cluster: commits clusters/NAME.yaml naming its kubeconfig and context.
  unjoin     Remove a member's registration, saying what would be dropped from it.
  cordon     Taint a cluster unschedulable (uncordon removes it): new placements avoid it.
  taint      Add or remove cluster taints, kubectl style: key=value:Effect, key:Effect-, key-.
             (join, unjoin, cordon, uncordon, taint: --reason, --author, --branch B for a pull request)
  get        kubectl get from Git state: clusters, bindings (rb), works or a kind (deploy, svc…);
             NAME, -n NS|-A, --cluster C, -o wide|yaml|json. get shards: who leads and which replica of
             flotilla run --leader-elect applies which cluster, from their Leases.
  describe   kubectl describe from Git state: a cluster, binding or template, with its commit history.
  blame      Which source commit produced what runs on --cluster C now: flotilla blame --cluster C deploy/nginx.
  agent      Pull mode beside one member: apply clusters/NAME/ of the rendered branch, push its status
             (--cluster NAME --repo PATH|URL --kubeconfig F [--context C] [--interval S] [--once]).
  ui         The read-only web dashboard over a repo's branches (--repo R [--listen 127.0.0.1:9465]
             [--ui-token-env VAR]); flotilla run and up serve it too, at /ui/.
  interpret  Test ResourceInterpreterCustomizations as karmadactl interpret does: -f FILE --check, or
             --operation OP with --desired-file/--observed-file/--status-file/--desired-replica.
  member     Run a local member cluster that speaks the Kubernetes API (flotilla member serve --help).

Common options (each command takes those its own --help lists, and refuses the others):
  --repo DIR              Config repository, bare or not (default: the one the current folder is in, as git finds it)
  --rev REV               Source revision (default: head of --source-branch; validate in a work tree: what is
                          checked out)
  --source-branch NAME    Branch holding the config (default: main)
  --branch NAME           Output branch (default: flotilla/rendered)
  --cluster-status FILE   Cluster objects with status (YAML stream) for capacity and API checks
  -n, --namespace NS      Namespace of <kind>/<name> (default: any, the default namespace first)
  -o, --output FORMAT     text (default), wide, yaml or json; plan: text, markdown, json or yaml
${RENDER_LIMITS_HELP}
                          (validate, render, sync, verify; flotilla run takes both too)
  -h, --help              This help

Examples:
  flotilla validate --repo ./config
  flotilla render --repo ./config                 # commits to flotilla/rendered
  flotilla render --repo ./config --out-dir out   # writes the layout to a folder
  flotilla sync --repo ./config.git
  flotilla explain deployment/nginx -n default --repo ./config
`;

const AGENT_USAGE = `usage: flotilla agent --cluster NAME --repo PATH|URL --kubeconfig FILE [--context C] [--interval 30] [--once]
       [--branch flotilla/rendered] [--status-branch flotilla/status] [--cache-dir ~/.cache/flotilla/agent]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Helm and Kustomize units: the pinned tools of .tools/ first, then these folders.
  configureToolSearch({ searchPath: process.env.PATH ?? '' });
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === 'up') {
    const { values } = parseArgs({
      args: rest,
      options: {
        dir: { type: 'string', default: '.flotilla/demo' },
        exit: { type: 'boolean', default: false },
        'log-format': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(
        'Usage: flotilla up [--dir DIR] [--exit] [--log-format text|json]\n\n' +
          'The local demo in DIR (default .flotilla/demo): member emulators, the reconciler and a config repo to push to;\n' +
          '--exit stops once the walkthrough is shown. What each flag means: flotilla --help\n',
      );
      return 0;
    }
    const { upCommand } = await import('./commands/upCommand.ts');
    const { chooseLogFormat } = await import('./commands/progressLine.ts');
    const stopSignal = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return upCommand({
      dir: values.dir ?? '.flotilla/demo',
      exit: values.exit ?? false,
      // Its log goes to stderr (stdout is the "Try next" text): a terminal there means text.
      logFormat: chooseLogFormat(values['log-format'], process.stderr.isTTY === true),
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
      stopSignal,
    });
  }
  if ((CLUSTER_OPERATIONS as readonly string[]).includes(command)) {
    const { clusterCommand } = await import('./commands/clusterCommand.ts');
    return clusterCommand(command as ClusterOperation, rest, {
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
      env: process.env,
      now: () => new Date(),
    });
  }
  if (command === 'get' || command === 'describe' || command === 'blame') {
    const ctx = {
      out: (s: string) => process.stdout.write(s),
      err: (s: string) => process.stderr.write(s),
      now: () => new Date(),
    };
    if (command === 'get' && rest[0] === 'shards')
      return (await import('./commands/getShardsCommand.ts')).getShardsCommand(rest.slice(1), {
        ...ctx,
        cwd: process.cwd(),
        inCluster:
          process.env.KUBERNETES_SERVICE_HOST && process.env.KUBERNETES_SERVICE_PORT
            ? { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT }
            : undefined,
      });
    if (command === 'get') return (await import('./commands/getCommand.ts')).getCommand(rest, ctx);
    if (command === 'describe') return (await import('./commands/describeCommand.ts')).describeCommand(rest, ctx);
    return (await import('./commands/blameCommand.ts')).blameCommand(rest, ctx);
  }
  if (command === 'agent') {
    const { values } = parseArgs({
      args: rest,
      options: {
        cluster: { type: 'string' },
        repo: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        branch: { type: 'string', default: RENDERED_BRANCH },
        'status-branch': { type: 'string', default: STATUS_BRANCH },
        interval: { type: 'string', default: '30' },
        once: { type: 'boolean', default: false },
        'cache-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${AGENT_USAGE}\n`);
      return 0;
    }
    const missing = (['cluster', 'repo', 'kubeconfig'] as const).filter((k) => !values[k]);
    if (missing.length)
      throw new UsageError(
        `agent needs ${missing.map((k) => `--${k}`).join(', ')}; e.g. flotilla agent --cluster member3 --repo https://git.example.com/fleet.git --kubeconfig members.config`,
      );
    // A testing knob of the reliability suite (npm run test:faults), not a setting: see agentCommand's pauseAtStatusCommit.
    const pauseAt = process.env.FLOTILLA_FAULT_PAUSE_AT || undefined;
    if (pauseAt && pauseAt !== 'status-commit')
      throw new UsageError(`FLOTILLA_FAULT_PAUSE_AT=${pauseAt}: flotilla agent knows status-commit only, or unset it`);
    const { homedir } = await import('node:os');
    const { agentCommand } = await import('./commands/agentCommand.ts');
    const stopSignal = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return agentCommand({
      cluster: values.cluster!,
      repo: values.repo!,
      kubeconfig: values.kubeconfig!,
      context: values.context,
      renderedBranch: values.branch!,
      statusBranch: values['status-branch']!,
      intervalSeconds: Number(values.interval),
      once: values.once!,
      cacheDir: values['cache-dir'] ?? `${process.env.XDG_CACHE_HOME ?? `${homedir()}/.cache`}/flotilla/agent`,
      out: (s) => process.stdout.write(s),
      stopSignal,
      pauseAtStatusCommit: pauseAt === 'status-commit',
    });
  }
  if (command === 'run') {
    const { RUN_OPTIONS, RUN_USAGE, FAULT_PAUSE_POINTS } = await import('./commands/runOptions.ts');
    const { values } = parseArgs({ args: rest, options: RUN_OPTIONS });
    if (values.help) {
      process.stdout.write(`${RUN_USAGE}\n`);
      return 0;
    }
    const { runCommand } = await import('./commands/runCommand.ts');
    const secretEnv = values['webhook-secret-env'];
    const { parseForgeOptions, readForgeToken } = await import('./commands/parseForgeOptions.ts');
    const forgeConfig = parseForgeOptions(values);
    const forge = forgeConfig ? { config: forgeConfig, token: readForgeToken(forgeConfig, process.env) } : undefined;
    // A testing knob of the reliability suite (npm run test:faults), not a setting: see runCommand's pauseAt.
    const pauseAt = process.env.FLOTILLA_FAULT_PAUSE_AT || undefined;
    if (pauseAt && !(FAULT_PAUSE_POINTS as readonly string[]).includes(pauseAt))
      throw new UsageError(`FLOTILLA_FAULT_PAUSE_AT=${pauseAt}: use ${FAULT_PAUSE_POINTS.join(' or ')}, or unset it`);
    const { chooseLogFormat } = await import('./commands/progressLine.ts');
    const logFormat = chooseLogFormat(values['log-format'], process.stdout.isTTY === true);
    const stopSignal = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return runCommand({
      logFormat,
      pauseAt: pauseAt as (typeof FAULT_PAUSE_POINTS)[number] | undefined,
      repo: values.repo,
      ...(values['repo-env']
        ? { repoEnv: { name: values['repo-env'], value: process.env[values['repo-env']] || undefined } }
        : {}),
      sourceBranch: values['source-branch'] ?? 'main',
      credentialsDir: values['credentials-dir'],
      kubeconfig: values.kubeconfig,
      insecureKubeconfigExec: values['insecure-kubeconfig-exec'] ?? false,
      listen: values.listen ?? '127.0.0.1:9464',
      resync: values.resync ?? '5m',
      fetchSchedule: values['fetch-schedule'] ?? '* * * * *',
      webhookSecretEnv: secretEnv,
      webhookSecret: secretEnv ? process.env[secretEnv] || undefined : undefined,
      uiTokenEnv: values['ui-token-env'],
      uiToken: values['ui-token-env'] ? process.env[values['ui-token-env']] || undefined : undefined,
      mirrorDir: values['mirror-dir'],
      forge,
      clusterFailureThreshold: values['cluster-failure-threshold'],
      clusterSuccessThreshold: values['cluster-success-threshold'],
      clusterStatusUpdateFrequency: values['cluster-status-update-frequency'],
      gracefulEvictionTimeout: values['graceful-eviction-timeout'],
      autoscaler: {
        'horizontal-pod-autoscaler-sync-period': values['horizontal-pod-autoscaler-sync-period'],
        'horizontal-pod-autoscaler-tolerance': values['horizontal-pod-autoscaler-tolerance'],
        'horizontal-pod-autoscaler-downscale-stabilization':
          values['horizontal-pod-autoscaler-downscale-stabilization'],
        'horizontal-pod-autoscaler-cpu-initialization-period':
          values['horizontal-pod-autoscaler-cpu-initialization-period'],
        'horizontal-pod-autoscaler-initial-readiness-delay':
          values['horizontal-pod-autoscaler-initial-readiness-delay'],
      },
      maxSourceFiles: values['max-source-files'],
      maxOutputBytes: values['max-output-bytes'],
      ...(values['leader-elect']
        ? {
            leaderElect: {
              leaseDuration: values['leader-elect-lease-duration'],
              renewDeadline: values['leader-elect-renew-deadline'],
              retryPeriod: values['leader-elect-retry-period'],
              namespace: values['leader-elect-resource-namespace'],
              kubeconfig: values['leader-elect-kubeconfig'],
              context: values['leader-elect-context'],
              id: values.id,
              inCluster:
                process.env.KUBERNETES_SERVICE_HOST && process.env.KUBERNETES_SERVICE_PORT
                  ? { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT }
                  : undefined,
            },
          }
        : {}),
      cwd: process.cwd(),
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
      stopSignal,
    });
  }
  if (command === 'ui') {
    const { uiCommand, UI_OPTIONS, UI_USAGE } = await import('./commands/uiCommand.ts');
    const { values } = parseArgs({ args: rest, options: UI_OPTIONS });
    if (values.help) {
      process.stdout.write(`${UI_USAGE}\n`);
      return 0;
    }
    const tokenEnv = values['ui-token-env'];
    const stopSignal = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return uiCommand({
      repo: values.repo,
      sourceBranch: values['source-branch'] ?? 'main',
      listen: values.listen ?? '127.0.0.1:9465',
      uiTokenEnv: tokenEnv,
      uiToken: tokenEnv ? process.env[tokenEnv] || undefined : undefined,
      cwd: process.cwd(),
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
      stopSignal,
    });
  }
  if (command === 'interpret') {
    const { interpretCommand, INTERPRET_OPTIONS, INTERPRET_USAGE } = await import('./commands/interpretCommand.ts');
    const { values } = parseArgs({ args: rest, options: INTERPRET_OPTIONS });
    if (values.help) {
      process.stdout.write(`${INTERPRET_USAGE}\n`);
      return 0;
    }
    return interpretCommand({
      filenames: values.filename ?? [],
      check: values.check ?? false,
      operation: values.operation,
      desiredFile: values['desired-file'],
      observedFile: values['observed-file'],
      statusFile: values['status-file'],
      desiredReplica: values['desired-replica'],
      out: (s) => process.stdout.write(s),
      err: (s) => process.stderr.write(s),
    });
  }
  if (command === 'member') {
    const { runMemberServe, SERVE_USAGE } = await import('./members/index.ts');
    if (rest[0] !== 'serve') throw new UsageError(SERVE_USAGE);
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`${SERVE_USAGE}\n`);
      return 0;
    }
    await runMemberServe(rest.slice(1));
    return 0;
  }
  if (!(command in COMMAND_FLAGS)) throw new UsageError(`unknown command "${command}"; run flotilla --help`);
  const { values, positionals, tokens } = parseArgs({
    args: rest,
    allowPositionals: true,
    tokens: true,
    options: {
      repo: { type: 'string' },
      rev: { type: 'string' },
      'source-branch': { type: 'string', default: 'main' },
      branch: { type: 'string', default: RENDERED_BRANCH },
      'out-dir': { type: 'string' },
      'cluster-status': { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      base: { type: 'string' },
      head: { type: 'string' },
      cluster: { type: 'string' },
      reason: { type: 'string' },
      output: { type: 'string', short: 'o', default: 'text' },
      ...RENDER_LIMIT_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
  });
  const own = COMMAND_FLAGS[command as SharedParserCommand];
  if (values.help) {
    process.stdout.write(`Usage: ${own.usage}\n\nWhat each flag means: flotilla --help\n`);
    return 0;
  }
  const output = values.output ?? 'text';
  const given = tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : []));
  const refused = flagProblem(command as SharedParserCommand, given, output);
  if (refused) throw new UsageError(refused);
  const common = {
    repo: values.repo ?? repoAround('.'),
    rev: values.rev ?? values['source-branch'] ?? 'main',
    sourceRef: `refs/heads/${values['source-branch'] ?? 'main'}`,
    outputRef: `refs/heads/${values.branch ?? RENDERED_BRANCH}`,
    clusterStatusFile: values['cluster-status'],
    limits: parseRenderLimits(values),
    output: (output === 'markdown' ? 'text' : output) as 'text' | 'wide' | 'yaml' | 'json',
    out: (s: string) => process.stdout.write(s),
    err: (s: string) => process.stderr.write(s),
    errIsTerminal: process.stderr.isTTY === true,
  };
  // A command that only reads the output branch reads a clone's fetched copy of it when the clone has no local one.
  const reading = async () => ({
    ...common,
    outputRef: await readableBranchRef(await openRepo(common.repo), common.outputRef),
  });
  switch (command) {
    case 'validate':
      // No revision named: what is checked out, as kubectl and git read the files in front of them.
      return (await import('./commands/validateCommand.ts')).validateCommand({
        ...common,
        checkedOut: !given.includes('rev') && !given.includes('source-branch'),
      });
    case 'render':
      return (await import('./commands/renderCommand.ts')).renderCommand({ ...common, outDir: values['out-dir'] });
    case 'sync':
      return (await import('./commands/syncCommand.ts')).syncCommand(common);
    case 'explain':
      return (await import('./commands/explainCommand.ts')).explainCommand({
        ...(await reading()),
        words: positionals,
        namespace: values.namespace,
        outDir: values['out-dir'],
      });
    case 'plan':
      return (await import('./commands/planCommand.ts')).planCommand({
        ...common,
        base: values.base,
        head: values.head,
        ...(output === 'markdown' || output === 'json' || output === 'yaml' || output === 'text'
          ? { format: output }
          : {}),
      });
    case 'verify':
      return (await import('./commands/verifyCommand.ts')).verifyCommand({
        ...(await reading()),
        verifyRev: values.rev,
      });
    case 'history': {
      const target = positionals[0];
      if (!target) throw new UsageError('history needs <kind>/<name>, e.g. flotilla history deploy/nginx -n default');
      return (await import('./commands/historyCommand.ts')).historyCommand({
        ...(await reading()),
        target,
        namespace: values.namespace,
        cluster: values.cluster,
      });
    }
    case 'reschedule': {
      // Here --branch names the config branch the request is committed to.
      const branchGiven = rest.some((a) => a === '--branch' || a.startsWith('--branch='));
      return (await import('./commands/rescheduleCommand.ts')).rescheduleCommand({
        ...common,
        words: positionals,
        namespace: values.namespace,
        reason: values.reason,
        branch: branchGiven ? values.branch! : (values['source-branch'] ?? 'main'),
        renderedRef: branchGiven ? `refs/heads/${RENDERED_BRANCH}` : common.outputRef,
        now: new Date(),
      });
    }
    default:
      throw new UsageError(`unknown command "${command}"; run flotilla --help`);
  }
}

// The last line a user sees may quote a Git URL (with its token) or text from the repo: redacted, then neutralised.
const shown = (text: string) => terminalSafe(redactUrlsIn(text), { multiline: true });

// A reader that stops early (`flotilla get … -o yaml | head`) closes the pipe: what is left has no reader, and the
// command ends quietly, as git and kubectl do, instead of with Node's unhandled EPIPE stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Node's argument parser: an unknown option, an option missing its value, an unexpected argument.
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) {
      process.stderr.write(`flotilla: ${shown((err as Error).message)}\n`);
      process.exitCode = 2;
      return;
    }
    const known = err as { code?: string; message?: string };
    if (known.code && known.message) {
      process.stderr.write(`flotilla: ${shown(known.message)}\n`);
    } else {
      process.stderr.write(
        `flotilla: internal error: ${shown((err as Error)?.stack ?? String(err))}\nPlease report this at the project's issue tracker.\n`,
      );
    }
    process.exitCode = 3;
  },
);
