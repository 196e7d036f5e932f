// Throwaway config repos made with the real git, so tests exercise what a user's repo looks like, and the fleet
// around one: the repo (with a bare remote a reconciler can read), emulated members registered in Git by
// kubeconfigRef with their kubeconfig in a credentials folder outside the repo, and the rendered branch read back.
// The manifests the tests push are built here too, so every suite writes the same YAML for the same intent.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readBlobs } from '../../src/commits/readBlobs.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { startMember, type Member, type MemberOptions } from '../../src/members/startMember.ts';
import { writeKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { syncRepo, type SyncResult } from '../../src/outputs/syncRepo.ts';
import type { ReconcilerOptions } from '../../src/passes/startReconciler.ts';

export const SOURCE_REF = 'refs/heads/main';
export const RENDERED_REF = 'refs/heads/flotilla/rendered';
/** The members of a fleet when a test names none. */
export const CLUSTERS = ['member1', 'member2'] as const;

export const SAMPLES = path.resolve(import.meta.dirname, '../../../shared/karmada-samples');

export function sample(rel: string): string {
  return readFileSync(path.join(SAMPLES, rel), 'utf8');
}

export function clusterYaml(
  name: string,
  extra: { labels?: Record<string, string>; region?: string; zones?: string[]; taints?: string } = {},
): string {
  const labels = extra.labels
    ? `\n  labels:\n${Object.entries(extra.labels)
        .map(([k, v]) => `    ${k}: ${v}`)
        .join('\n')}`
    : '';
  return `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}${labels}
spec:
  syncMode: Push
  apiEndpoint: https://127.0.0.1:6443${extra.region ? `\n  region: ${extra.region}` : ''}${extra.zones ? `\n  zones: [${extra.zones.join(', ')}]` : ''}${extra.taints ?? ''}
`;
}

export interface ConfigRepo {
  dir: string;
  /** The bare repo `dir` was cloned from and `push` sends to (a fleet's work repo only). */
  bare?: string;
  git(...args: string[]): string;
  /** Writes files (null deletes) and commits them; returns the new commit sha. */
  commit(
    files: Record<string, string | Buffer | null>,
    message?: string,
    author?: { name: string; email: string },
  ): string;
  /** commit, then push HEAD to the bare repo's main. */
  push(files: Record<string, string | Buffer | null>, message?: string): string;
  show(rev: string, file: string): string;
  ls(rev: string): string[];
  cleanup(): void;
}

/** Identity and config for git commands run as the fleet's operator; no user or system config leaks in. */
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

/** `git` in `cwd` as the fleet's operator; returns trimmed stdout. */
function runGit(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * runGit without blocking: a check repeated while a reconciler and members run in this process must not stop their
 * event loop for each git it starts (on a loaded machine, for longer than the passes it waits for get to run).
 */
function runGitAsync(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }, (err, stdout) =>
      err ? reject(err) : resolve(stdout.trim()),
    ),
  );
}

export function makeConfigRepo(): ConfigRepo {
  return initConfigRepo(mkdtempSync(path.join(tmpdir(), 'flotilla-test-')), {});
}

/** With `remote`, a bare repo (`bare`) comes first and the work repo is its clone, as a user's checkout of a hosted repo. */
function initConfigRepo(root: string, opts: { remote?: boolean }): ConfigRepo {
  // Fixed, per-repo dates: two repos built from the same steps hold identical commits.
  let clock = 1_700_000_000;
  const dir = path.join(root, 'work');
  const bare = opts.remote ? path.join(root, 'repo.git') : undefined;
  const run = (cwd: string, args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', ...env },
    }).trim();
  if (bare) {
    runGit(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    runGit(bare, ['config', 'gc.auto', '0']);
    runGit(root, ['clone', '-q', bare, dir]);
  } else {
    mkdirSync(dir);
    run(dir, ['init', '-q', '-b', 'main']);
  }
  const repo: ConfigRepo = {
    dir,
    ...(bare ? { bare } : {}),
    git: (...args) => run(dir, args),
    commit(files, message = 'change', author = { name: 'Ada', email: 'ada@example.com' }) {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(dir, rel);
        if (content === null) rmSync(file, { force: true });
        else {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, content);
        }
      }
      clock += 60;
      const date = `${clock} +0000`;
      run(dir, ['add', '-A']);
      run(
        dir,
        [
          '-c',
          `user.name=${author.name}`,
          '-c',
          `user.email=${author.email}`,
          'commit',
          '-q',
          '--allow-empty',
          '-m',
          message,
        ],
        { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      );
      return run(dir, ['rev-parse', 'HEAD']);
    },
    push(files, message) {
      if (!bare) throw new Error('push needs a bare remote: use makeFleet');
      const sha = repo.commit(files, message);
      runGit(dir, ['push', '-q', 'origin', 'HEAD:main']);
      return sha;
    },
    show: (rev, file) => run(dir, ['show', `${rev}:${file}`]),
    ls: (rev) => run(dir, ['ls-tree', '-r', '--name-only', rev]).split('\n').filter(Boolean),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  return repo;
}

/** A config repo whose first commit holds `files`; kept in `repos`, which the suite's test.after cleans up. */
export function makeConfigRepoWith(repos: ConfigRepo[], files: Record<string, string>, message: string): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(files, message);
  return r;
}

/** Three member registrations, as the demo and the Karmada walkthrough use. */
export const MEMBERS = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'clusters/member3.yaml': clusterYaml('member3'),
};

/** Three member registrations, member1 and member2 labelled env: prod and member3 env: dev. */
export const PROD_AND_DEV_MEMBERS = {
  'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod' } }),
  'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'prod' } }),
  'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'dev' } }),
};

/**
 * Karmada's nginx PropagationPolicy sample: Divided 1:1 over member1 and member2. With `tolerationSeconds`, it
 * tolerates the not-ready NoExecute taint that long, so failover waits for it.
 */
export function nginxPolicy(opts: { tolerationSeconds?: number } = {}): string {
  const tolerations =
    opts.tolerationSeconds === undefined
      ? ''
      : `    clusterTolerations:
      - key: cluster.karmada.io/not-ready
        operator: Exists
        effect: NoExecute
        tolerationSeconds: ${opts.tolerationSeconds}
`;
  return sample('nginx/propagationpolicy.yaml').replace('  placement:\n', `  placement:\n${tolerations}`);
}

/** Karmada's nginx sample (2 replicas, the policy above) beside the three members. */
export function nginxSample(opts: { tolerationSeconds?: number } = {}): Record<string, string> {
  return {
    ...MEMBERS,
    'templates/nginx.yaml': sample('nginx/deployment.yaml'),
    'policies/nginx.yaml': nginxPolicy(opts),
  };
}

/** A Cluster registered for Push through kubeconfigRef: its credentials are context `name` of members.config. */
export function clusterRegistration(name: string): string {
  return `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
spec:
  syncMode: Push
  kubeconfigRef:
    path: members.config
    context: ${name}
`;
}

/** `data` as a string is the value of key `value`. */
export function configMap(
  name: string,
  data: string | Record<string, string> = { value: name },
  namespace = 'default',
): string {
  const entries = typeof data === 'string' ? { value: data } : data;
  const body = Object.entries(entries)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n${body}\n`;
}

/**
 * An nginx Deployment with small requests, so capacity-aware scheduling has something to count; without them
 * (`requests: false`) Karmada takes it for a workload only while its replicas are above 0.
 */
export function deployment(
  name: string,
  replicas: number,
  opts: { requests?: boolean; labels?: Record<string, string> } = {},
): string {
  const labels = Object.entries(opts.labels ?? {}).map(([k, v]) => `\n    ${k}: ${JSON.stringify(v)}`);
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
  labels:
    app: ${name}${labels.join('')}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
${
  opts.requests === false
    ? ''
    : `          resources:
            requests:
              cpu: 10m
              memory: 16Mi
`
}`;
}

/**
 * Divided 1:1 over the given clusters, as Karmada's nginx walkthrough. With `notReadyTolerationSeconds`, it tolerates
 * the not-ready NoExecute taint that long before its replicas leave a NotReady cluster.
 */
export function weightedPolicy(
  name: string,
  clusters: string[],
  opts: { notReadyTolerationSeconds?: number } = {},
): string {
  const tolerations =
    opts.notReadyTolerationSeconds === undefined
      ? ''
      : `    clusterTolerations:
      - {key: cluster.karmada.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: ${opts.notReadyTolerationSeconds}}
`;
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ${name}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
${tolerations}    replicaScheduling:
      replicaDivisionPreference: Weighted
      replicaSchedulingType: Divided
      weightPreference:
        staticWeightList:
${clusters.map((c) => `          - {targetCluster: {clusterNames: [${c}]}, weight: 1}`).join('\n')}
`;
}

/** Karmada's ClusterTaintPolicy for failover: NotReady or Unknown taints a cluster not-ready:NoExecute, Ready lifts it. */
export const NOT_READY_TAINT_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: not-ready-evicts
spec:
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["False", "Unknown"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: cluster.karmada.io/not-ready, effect: NoExecute}]
`;

/** Every ConfigMap of the repo (of `namespace` when given), duplicated to the given clusters. */
export function configMapPolicy(clusters: string[], namespace?: string): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
`;
}

/** Every Deployment of namespace default, to each listed cluster whole (replicas as the template says). */
export function deploymentPolicy(clusters: readonly string[]): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: deployments
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
`;
}

/** Every ConfigMap and Deployment of namespace default goes to every listed cluster, whole. */
export function policy(clusters: readonly string[] = CLUSTERS, extra = ''): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: everything
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
    replicaScheduling:
      replicaSchedulingType: Duplicated
${extra}`;
}

/** A starting commit: N ConfigMaps, one Deployment, the policy and the clusters. */
export function baseFiles(configMaps = 4, clusters: readonly string[] = CLUSTERS): Record<string, string> {
  const files: Record<string, string> = {
    'policies/everything.yaml': policy(clusters),
    'templates/web.yaml': deployment('web', 2),
  };
  for (const c of clusters) files[`clusters/${c}.yaml`] = clusterYaml(c);
  for (let i = 0; i < configMaps; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  return files;
}

/** Where the renderer writes one object for one cluster. */
export function manifestOf(cluster: string, kind: string, name: string, namespace = 'default', group = ''): string {
  return `clusters/${cluster}/${namespace}/${kind.toLowerCase()}${group ? `.${group}` : ''}_${name}.yaml`;
}

export interface Fleet {
  root: string;
  /** The bare repo `flotilla run` reads; `work` is its clone. */
  bare: string;
  /** The clone tests commit in (`work.commit`) and push from (`push`). */
  work: ConfigRepo;
  /** `work` as the renderer opens it. */
  repo: GitRepo;
  /** Holds members.config, outside the repo as a deployment keeps it. */
  credentials: string;
  /** Emulated members, started on free ports, in the order named. */
  members: Member[];
  /** `git` in `cwd` as the fleet's operator. */
  git(cwd: string, ...args: string[]): string;
  /** `git` that leaves the event loop free: for checks repeated while an in-process reconciler and members run. */
  gitAsync(cwd: string, ...args: string[]): Promise<string>;
  /** Writes files into the clone, commits and pushes to the bare repo; returns the new commit. */
  push(files: Record<string, string | null>, message?: string): string;
  /** One render of `work` onto its rendered branch; a fresh GitRepo each time, as a reconciler re-reads refs each pass. */
  sync(): Promise<SyncResult>;
  /** Path → blob oid of the rendered branch's head of `work` (empty when there is none). */
  output(): Promise<Map<string, string>>;
  /** Text of one file of the rendered head. */
  outputText(path: string): Promise<string | undefined>;
  renderedHead(): Promise<string | null>;
  /** Stops the members and removes every file. */
  cleanup(): Promise<void>;
}

/**
 * A config repo with a bare remote and `members` running (none unless named), their kubeconfig written to the
 * credentials folder. `files`, when given, is the work repo's first commit (`message`, 'Base fleet' unless given), not
 * pushed.
 */
export async function makeFleet(
  opts: {
    members?: readonly string[];
    readyDelayMs?: number;
    files?: Record<string, string>;
    message?: string;
    memberOptions?: Partial<MemberOptions>;
  } = {},
): Promise<Fleet> {
  const root = mkdtempSync(path.join(tmpdir(), 'flotilla-fleet-'));
  const work = initConfigRepo(root, { remote: true });
  const bare = work.bare!;
  const credentials = path.join(root, 'credentials');
  mkdirSync(credentials);
  const members: Member[] = [];
  const cleanup = async () => {
    await Promise.all(members.map((m) => m.stop()));
    work.cleanup();
  };
  try {
    for (const name of opts.members ?? []) {
      members.push(
        await startMember({
          name,
          port: 0,
          dataDir: path.join(root, 'members', name),
          readyDelayMs: opts.readyDelayMs ?? 100,
          ...opts.memberOptions,
        }),
      );
    }
    writeKubeconfig(path.join(credentials, 'members.config'), members);
    if (opts.files) work.commit(opts.files, opts.message ?? 'Base fleet');
  } catch (err) {
    await cleanup();
    throw err;
  }
  const repo = await openRepo(work.dir);
  const output = async () => {
    const head = await readRef(repo, RENDERED_REF);
    if (!head) return new Map<string, string>();
    const tree = await listTreeFiles(repo, (await readCommitInfo(repo, head)).tree);
    return new Map([...tree].map(([p, f]) => [p, f.oid]));
  };
  return {
    root,
    bare,
    work,
    repo,
    credentials,
    members,
    output,
    cleanup,
    git: (cwd, ...args) => runGit(cwd, args),
    gitAsync: (cwd, ...args) => runGitAsync(cwd, args),
    push: (files, message = 'change') => work.push(files, message),
    sync: async () => syncRepo(await openRepo(work.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF }),
    async outputText(file) {
      const oid = (await output()).get(file);
      if (!oid) return undefined;
      return new TextDecoder().decode((await readBlobs(repo, [oid])).get(oid)!);
    },
    renderedHead: () => readRef(repo, RENDERED_REF),
  };
}

/**
 * A reconciler on the fleet as `flotilla run --repo <bare> --credentials-dir <credentials> --resync 0` starts one:
 * members from their registrations in Git, no resync, no listener. `extra` adds to or overrides these.
 */
export function reconcilerOptions(
  fleet: Fleet,
  log: ReconcilerOptions['log'],
  extra: Partial<ReconcilerOptions> = {},
): ReconcilerOptions {
  return {
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
    resyncMs: 0,
    log,
    ...extra,
  };
}
