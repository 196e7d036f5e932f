// A config repo served the way `flotilla run` expects one: a bare repo, a clone to push from, emulated members
// registered in Git by kubeconfigRef, and their kubeconfig in a credentials folder outside the repo.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMember, type Member } from '../../../src/members/startMember.ts';
import { writeKubeconfig } from '../../../src/members/writeKubeconfig.ts';

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com',
};

export interface Fleet {
  root: string;
  bare: string;
  work: string;
  credentials: string;
  members: Member[];
  git(cwd: string, ...args: string[]): string;
  /** Writes files into the clone, commits and pushes to the bare repo; returns the new commit. */
  push(files: Record<string, string | null>, message?: string): string;
  cleanup(): Promise<void>;
}

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

export function deployment(name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels: {app: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: ${name}, image: nginx}]
`;
}

/**
 * Divided 1:1 over the given clusters, as Karmada's nginx walkthrough. With `notReadyTolerationSeconds`, it tolerates
 * the not-ready NoExecute taint that long before its replicas leave a NotReady cluster.
 */
export function weightedPolicy(name: string, clusters: string[], opts: { notReadyTolerationSeconds?: number } = {}): string {
  const tolerations = opts.notReadyTolerationSeconds === undefined ? '' : `    clusterTolerations:
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

/** Every ConfigMap of the repo, duplicated to the given clusters. */
export function configMapPolicy(clusters: string[]): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
`;
}

export function configMap(name: string, value: string): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
  value: "${value}"
`;
}

export async function makeFleet(names: string[], opts: { readyDelayMs?: number } = {}): Promise<Fleet> {
  const root = mkdtempSync(path.join(tmpdir(), 'flotilla-run-'));
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const bare = path.join(root, 'repo.git');
  const work = path.join(root, 'work');
  const credentials = path.join(root, 'credentials');
  mkdirSync(credentials);
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(bare, 'config', 'gc.auto', '0');
  git(root, 'clone', '-q', bare, work);
  const members: Member[] = [];
  for (const name of names) {
    members.push(await startMember({ name, port: 0, dataDir: path.join(root, 'members', name), readyDelayMs: opts.readyDelayMs ?? 100 }));
  }
  writeKubeconfig(path.join(credentials, 'members.config'), members);
  return {
    root, bare, work, credentials, members, git,
    push(files, message = 'change') {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(work, rel);
        if (content === null) rmSync(file, { force: true });
        else {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, content);
        }
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '--allow-empty', '-m', message);
      git(work, 'push', '-q', 'origin', 'HEAD:main');
      return git(work, 'rev-parse', 'HEAD');
    },
    async cleanup() {
      await Promise.all(members.map((m) => m.stop()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
