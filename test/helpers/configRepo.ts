// Throwaway config repos made with the real git, so tests exercise what a user's repo looks like.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SAMPLES = path.resolve(import.meta.dirname, '../../../shared/karmada-samples');

export function sample(rel: string): string {
  return readFileSync(path.join(SAMPLES, rel), 'utf8');
}

export function clusterYaml(name: string, extra: { labels?: Record<string, string>; region?: string; zones?: string[]; taints?: string } = {}): string {
  const labels = extra.labels ? `\n  labels:\n${Object.entries(extra.labels).map(([k, v]) => `    ${k}: ${v}`).join('\n')}` : '';
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
  git(...args: string[]): string;
  /** Writes files (null deletes) and commits them; returns the new commit sha. */
  commit(files: Record<string, string | Buffer | null>, message?: string, author?: { name: string; email: string }): string;
  show(rev: string, file: string): string;
  ls(rev: string): string[];
  cleanup(): void;
}

export function makeConfigRepo(opts: { bare?: boolean } = {}): ConfigRepo {
  // Fixed, per-repo dates: two repos built from the same steps hold identical commits.
  let clock = 1_700_000_000;
  const root = mkdtempSync(path.join(tmpdir(), 'flotilla-test-'));
  const dir = path.join(root, 'work');
  mkdirSync(dir);
  const run = (cwd: string, args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', ...env } }).trim();
  run(dir, ['init', '-q', '-b', 'main']);
  const repo: ConfigRepo = {
    dir,
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
      run(dir, ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, 'commit', '-q', '--allow-empty', '-m', message],
        { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
      return run(dir, ['rev-parse', 'HEAD']);
    },
    show: (rev, file) => run(dir, ['show', `${rev}:${file}`]),
    ls: (rev) => run(dir, ['ls-tree', '-r', '--name-only', rev]).split('\n').filter(Boolean),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  if (opts.bare) {
    // Tests that need a bare repo clone the work repo into one after committing.
  }
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

/**
 * Karmada's nginx PropagationPolicy sample: Divided 1:1 over member1 and member2. With `tolerationSeconds`, it
 * tolerates the not-ready NoExecute taint that long, so failover waits for it.
 */
export function nginxPolicy(opts: { tolerationSeconds?: number } = {}): string {
  const tolerations = opts.tolerationSeconds === undefined ? '' : `    clusterTolerations:
      - key: cluster.karmada.io/not-ready
        operator: Exists
        effect: NoExecute
        tolerationSeconds: ${opts.tolerationSeconds}
`;
  return sample('nginx/propagationpolicy.yaml').replace('  placement:\n', `  placement:\n${tolerations}`);
}

/** Karmada's nginx sample (2 replicas, the policy above) beside the three members. */
export function nginxSample(opts: { tolerationSeconds?: number } = {}): Record<string, string> {
  return { ...MEMBERS, 'templates/nginx.yaml': sample('nginx/deployment.yaml'), 'policies/nginx.yaml': nginxPolicy(opts) };
}
