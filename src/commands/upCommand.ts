import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectKubeconfig } from '../deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { startMember, writeKubeconfig, type Member } from '../members/index.ts';
import { startReconciler } from '../passes/startReconciler.ts';
import { createDashboard, type Dashboard } from '../dashboard/createDashboard.ts';
import { openRepo } from '../commits/openRepo.ts';
import { startAgent } from '../pullAgent.ts';
import { progressPrinter, type LogFormat } from './progressLine.ts';

const TEMPLATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../repo-template');
const MEMBERS = [
  { name: 'member1', mode: 'Push' },
  { name: 'member2', mode: 'Push' },
  { name: 'member3', mode: 'Pull' },
] as const;

export interface UpOptions {
  dir: string;
  exit: boolean;
  /** json (default): the reconciler's and the agent's JSON lines on stderr; text: a progress line per step that did something. */
  logFormat?: LogFormat;
  out: (s: string) => void;
  err: (s: string) => void;
  /** Resolves when the user asks to stop (Ctrl-C). */
  stopSignal: Promise<void>;
}

/**
 * The one-command local testbed, as local-up-karmada gives it but without Docker: a bare config repo
 * watched by the reconciler, a clone to push from, three local members (member3 in Pull mode with its
 * agent), the nginx walkthrough pushed, and what it looks like once it runs.
 */
export async function upCommand(opts: UpOptions): Promise<number> {
  const dir = path.resolve(opts.dir);
  const started = Date.now();
  mkdirSync(dir, { recursive: true });
  const elapsed = () => `[${((Date.now() - started) / 1000).toFixed(1)}s] `;
  const text = opts.logFormat === 'text';
  // JSON lines are JSON whole, as `flotilla run`'s: the demo's own steps are `up` entries with the seconds since start.
  const json = (entry: Record<string, unknown>) => opts.err(`${JSON.stringify(entry)}\n`);
  const say = (s: string) =>
    text
      ? opts.err(`${elapsed()}✓ ${s}\n`)
      : json({ step: 'up', elapsed: Number(((Date.now() - started) / 1000).toFixed(1)), message: s });
  const members: Member[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  // What has started, for the line that says what Ctrl-C stopped; `stopping` once it was asked for.
  const running: Running = { members: [], agent: false, reconciler: false };
  let stopping: 'running' | 'starting' | undefined;
  let stopRequested = false;
  void opts.stopSignal.then(() => {
    stopRequested = true;
  });
  // Ctrl-C while the demo starts (up to half a minute) stops it there instead of after the "Try next" lines.
  const interrupted = () => {
    if (stopRequested) stopping = 'starting';
    return stopRequested;
  };
  const bare = path.join(dir, 'repo.git');
  const work = path.join(dir, 'work');
  try {
    for (const m of MEMBERS) {
      members.push(await startMember({ name: m.name, dataDir: path.join(dir, 'members', m.name), readyDelayMs: 300 }));
      running.members.push(m.name);
      say(`${text ? '' : 'member '}${m.name} (${m.mode}) serving at ${members[members.length - 1]!.url}`);
      if (interrupted()) return INTERRUPTED;
    }
    const kubeconfig = path.join(dir, 'members.config');
    writeKubeconfig(kubeconfig, members);
    // The reconciler's credentials folder holds its own copy and nothing else: not the clone under work/, whose
    // files whoever pushes to the demo writes (see README, Security model).
    const credentialsDir = path.join(dir, 'credentials');
    mkdirSync(credentialsDir, { recursive: true, mode: 0o700 });
    writeKubeconfig(path.join(credentialsDir, 'members.config'), members);
    const targets = await connectKubeconfig(kubeconfig);
    closers.push(() => Promise.all([...targets.values()].map((t) => t.close())).then(() => undefined));

    const fresh = !existsSync(bare);
    if (fresh) {
      git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
      git(dir, 'clone', '-q', bare, work);
      // The printed `git commit` has to work for someone who never set up git: only then the clone gets an identity.
      for (const [key, value] of [
        ['user.name', 'Flotilla demo'],
        ['user.email', 'demo@flotilla.local'],
      ] as const) {
        if (!gitConfigured(work, key)) git(work, 'config', key, value);
      }
    }
    const log = text ? progressPrinter(opts.err, elapsed) : json;
    // member3 is in Pull mode: its agent (what `flotilla agent` runs beside a member) works on the same bare repo,
    // on its own triggers, and once more after each reconciler pass so the demo's check sees it converge.
    const agent = await startAgent({
      cluster: 'member3',
      kube: targets.get('member3')!,
      source: { kind: 'local', repo: await openRepo(bare) },
      intervalMs: 10_000,
      log: (e) => log({ agent: 'member3', ...e }),
    });
    closers.push(() => agent.stop());
    running.agent = true;
    // The reconciler `flotilla run` is, on the bare repo: Push members come from the Cluster registrations in Git
    // (kubeconfigRef members.config, resolved against the credentials folder).
    let dashboard: Dashboard | undefined;
    const reconciler = await startReconciler({
      source: { kind: 'local', path: bare },
      routes: (req, res) => dashboard?.handle(req, res) ?? Promise.resolve(false),
      clusters: { kind: 'registered', credentialsDir, fallbackKubeconfig: kubeconfig },
      resyncMs: 10_000,
      listen: { host: '127.0.0.1', port: 0 },
      log,
      afterPass: async () => {
        await agent.pass().catch((e: unknown) => log({ agent: 'member3', step: 'agent', error: (e as Error).message }));
      },
    });
    closers.push(() => reconciler.stop());
    running.reconciler = true;
    dashboard = await createDashboard({ gitdir: reconciler.repo.gitdir, log });
    closers.push(() => dashboard?.close());
    const kick = () => reconciler.kick('demo');
    // In text mode the reconciler's own start line says this.
    if (!text) say(`reconciler watching ${bare} (main); ${reconciler.url}/metrics`);

    if (fresh) {
      for (const entry of readdirSync(TEMPLATE))
        cpSync(path.join(TEMPLATE, entry), path.join(work, entry), { recursive: true });
      git(work, 'add', '-A');
      git(
        work,
        '-c',
        'user.name=Flotilla demo',
        '-c',
        'user.email=demo@flotilla.local',
        'commit',
        '-q',
        '-m',
        'nginx: weighted 1:1 over member1 and member2',
      );
      git(work, 'push', '-q', 'origin', 'main');
      say('pushed the nginx Deployment and its PropagationPolicy');
    }
    if (interrupted()) return INTERRUPTED;
    await kick();
    const ready = await waitForNginx(targets, kick, 30_000, () => stopRequested);
    if (interrupted()) return INTERRUPTED;
    const { rows, pods } = await describeFleet(targets, started);
    opts.out(`\n${rows}\n\n${ready.summary}\n\n${pods}\n`);
    if (opts.exit) {
      // Nothing printed here points at a process about to stop: only what was checked and how to start it for real.
      opts.out(`\n${exitSummary(ready.ok, dir, bare, work)}\n`);
      return ready.ok ? 0 : 1;
    }
    // Above the block, not in it: every "Try next" line is a command to paste.
    opts.out(`
Dashboard: ${reconciler.url}/ui/

Try next:
  export KUBECONFIG=${kubeconfig}
  kubectl --context member1 get deploy,pods -o wide
  cd ${work}
  sed -i 's/replicas: 2/replicas: 4/' templates/nginx.yaml && git commit -qam "nginx: 4 replicas" && git push -q
  git --git-dir ${bare} log --stat -1 flotilla/rendered      # what changed on which cluster
  git --git-dir ${bare} show flotilla/status:templates/default/deployment.apps_nginx.yaml
  curl -s ${reconciler.url}/metrics | grep -E '^(cluster_ready_state|flotilla_reconcile_passes_total)'
  cat ${path.join(work, 'examples', 'README.md')}      # more: a Service exported across members, a FederatedHPA, a Helm chart
`);
    opts.out('Flotilla is running; Ctrl-C stops everything it started.\n');
    await opts.stopSignal;
    stopping = 'running';
    return 0;
  } finally {
    for (const close of closers.reverse()) await close();
    await Promise.all(members.map((m) => m.stop()));
    if (stopping) {
      // The answer to Ctrl-C, after everything has stopped: a person reads it on stdout (where "Ctrl-C stops
      // everything" was said), a log collector reads the same as the last JSON line.
      const stopped = stoppedSummary(
        running,
        stopping === 'starting',
        dir,
        existsSync(bare) ? { bare, work } : undefined,
      );
      if (!text) json(stopped.entry);
      opts.out(`${stopped.line}\n`);
    }
  }
}

/** The exit code of a start cut short by Ctrl-C, as a shell reports a command SIGINT ended (128 + 2). */
const INTERRUPTED = 130;

interface Running {
  members: string[];
  agent: boolean;
  reconciler: boolean;
}

const ALL: Running = { members: MEMBERS.map((m) => m.name), agent: true, reconciler: true };

function describeRunning(r: Running): string {
  const parts = [
    ...(r.reconciler ? ['the reconciler'] : []),
    ...(r.agent ? ["member3's agent"] : []),
    ...(r.members.length ? [`member${r.members.length === 1 ? '' : 's'} ${r.members.join(', ')}`] : []),
  ];
  if (parts.length === 0) return 'nothing (nothing had started yet)';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** What `up --exit` did, and how to keep it running. Pure. */
export function exitSummary(ok: boolean, dir: string, bare: string, work: string): string {
  return [
    `${ok ? 'Checked' : 'Tried'} the demo and stopped what it started (${describeRunning(ALL)}).`,
    `Kept: the config repo ${bare}, its clone ${work}, the members' state under ${path.join(dir, 'members')}.`,
    `Start it for real (the dashboard, kubectl and git push then work): ${restartCommand(dir)}`,
  ].join('\n');
}

/**
 * The last line of `up` after Ctrl-C, as text and as a log entry: what stopped (all of it, or what had started when
 * Ctrl-C came during the start), what is kept, how to start again. Pure.
 */
export function stoppedSummary(
  running: Running,
  duringStart: boolean,
  dir: string,
  kept: { bare: string; work: string } | undefined,
) {
  const restart = restartCommand(dir);
  const what = `${duringStart ? 'Interrupted while starting: stopped' : 'Stopped'} ${describeRunning(running)}.`;
  return {
    line: kept
      ? `${what} The config repo ${kept.bare} and its clone ${kept.work} are kept; start again: ${restart}`
      : `${what} Start again: ${restart}`,
    entry: {
      step: 'up-stopped',
      ...(duringStart ? { interrupted: 'starting' } : {}),
      stopped: [
        ...(running.reconciler ? ['reconciler'] : []),
        ...(running.agent ? ['agent member3'] : []),
        ...running.members,
      ],
      ...(kept ? { repo: kept.bare, clone: kept.work } : {}),
      restart,
    },
  };
}

function restartCommand(dir: string): string {
  // Pasted into a shell: a path with spaces or quotes stays one argument.
  const arg = /^[\w./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", "'\\''")}'`;
  return `flotilla up --dir ${arg}`;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function gitConfigured(cwd: string, key: string): boolean {
  try {
    return git(cwd, 'config', key).trim() !== '';
  } catch {
    return false; // `git config KEY` exits 1 when the key is unset anywhere
  }
}

async function waitForNginx(
  targets: ReadonlyMap<string, KubeTarget>,
  kick: () => Promise<void>,
  timeoutMs: number,
  stopRequested: () => boolean,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (stopRequested()) return { ok: false, summary: '' };
    let ready = 0;
    let desired = 0;
    const per: string[] = [];
    for (const [name, kube] of targets) {
      const res = await kube
        .request({ method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/nginx' })
        .catch(() => undefined);
      if (res?.status !== 200) continue;
      const d = res.body as { spec?: { replicas?: number }; status?: { readyReplicas?: number } };
      ready += d.status?.readyReplicas ?? 0;
      desired += d.spec?.replicas ?? 0;
      per.push(`${name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`);
    }
    if (desired > 0 && ready === desired) {
      await kick(); // one more pass so the status branch records the ready state
      return { ok: true, summary: `deployment/nginx  READY ${ready}/${desired} (aggregated)  ${per.join(', ')}` };
    }
    if (Date.now() > deadline)
      return {
        ok: false,
        summary: `deployment/nginx did not become ready in ${timeoutMs / 1000}s: ${per.join(', ') || 'not on any member'}`,
      };
    await kick();
  }
}

async function describeFleet(targets: ReadonlyMap<string, KubeTarget>, started: number) {
  const table: string[][] = [['NAME', 'VERSION', 'MODE', 'READY', 'AGE']];
  const pods: string[] = [];
  for (const m of MEMBERS) {
    const kube = targets.get(m.name)!;
    const version = await kube
      .request({ method: 'GET', path: '/version' })
      .then((r) => (r.body as { gitVersion?: string }).gitVersion ?? '?')
      .catch(() => '?');
    const ready = await kube
      .request({ method: 'GET', path: '/readyz' })
      .then((r) => (r.status === 200 ? 'True' : 'False'))
      .catch(() => 'False');
    table.push([m.name, version, m.mode, ready, `${Math.round((Date.now() - started) / 1000)}s`]);
    const list = await kube.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' }).catch(() => undefined);
    const items =
      (
        list?.body as {
          items?: { metadata: { name: string }; spec?: { nodeName?: string }; status?: { phase?: string } }[];
        }
      )?.items ?? [];
    pods.push(
      `${m.name}: ${items.length === 0 ? 'no pods' : items.map((p) => `${p.metadata.name} ${p.status?.phase ?? '?'} on ${p.spec?.nodeName ?? '-'}`).join(', ')}`,
    );
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return {
    rows: table
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('   ')
          .trimEnd(),
      )
      .join('\n'),
    pods: `Pods (namespace default):\n  ${pods.join('\n  ')}`,
  };
}
