// What the failover tests render with instead of a live fleet: a fixed clock, and a member's state as the status
// branch records it after it stopped answering.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import type { ConfigRepo } from './fleet.ts';

/** 2026-11-29T15:00:00Z: the times the tests write are read against it. */
export const T0 = Date.parse('2026-11-29T15:00:00Z');

/** A clock standing `s` seconds after T0. */
export const at = (s: number) => () => new Date(T0 + s * 1000);

/**
 * A sync of main to flotilla/rendered by a clock standing `s` seconds after T0, within `maxOutputBytes` when given:
 * `syncAt(repo)` makes one function of `s` of it.
 */
export function syncAt(repo: GitRepo) {
  return (s: number, maxOutputBytes?: number) =>
    syncRepo(repo, {
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      now: at(s),
      ...(maxOutputBytes ? { limits: { maxOutputBytes } } : {}),
    });
}

/** The graceful eviction tasks of Deployment default/`name`'s binding on flotilla/rendered. */
export function tasksOf(r: ConfigRepo, name: string) {
  const binding = parse(r.show('flotilla/rendered', `bindings/default/${name}-deployment.yaml`)) as ResourceBinding;
  return binding.spec.gracefulEvictionTasks ?? [];
}

/** The value of trailer `name` on flotilla/rendered's last commit. */
export function trailer(r: ConfigRepo, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, 'm').exec(r.git('log', '-1', '--format=%B', 'flotilla/rendered'))?.[1];
}

/** NotReady (ClusterNotReachable) since `since`, with the not-ready NoSchedule and a NoExecute taint (as a ClusterTaintPolicy adds). */
export function notReadyCluster(since: string): ObservedCluster {
  return {
    status: {
      conditions: [{ type: 'Ready', status: 'False', reason: 'ClusterNotReachable', lastTransitionTime: since }],
    },
    taints: [
      { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule', timeAdded: since },
      { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: since },
    ],
  };
}

/**
 * Commits cluster files to flotilla/status with git's plumbing, as the status writer would lay them out, with any
 * other status files (`files`: path → text, a template's aggregated status say).
 */
export function commitStatus(
  r: ConfigRepo,
  clusters: Record<string, ObservedCluster>,
  files: Record<string, string> = {},
): string {
  const indexFile = path.join(mkdtempSync(path.join(tmpdir(), 'flotilla-status-index-')), 'index');
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, {
      cwd: r.dir,
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_INDEX_FILE: indexFile,
        GIT_AUTHOR_NAME: 'Flotilla',
        GIT_AUTHOR_EMAIL: 'f@localhost',
        GIT_COMMITTER_NAME: 'Flotilla',
        GIT_COMMITTER_EMAIL: 'f@localhost',
      },
    }).trim();
  const texts = new Map(Object.entries(files));
  for (const [name, o] of Object.entries(clusters)) {
    const file = {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      ...(o.taints ? { spec: { taints: o.taints } } : {}),
      status: o.status ?? {},
    };
    texts.set(`clusters/${name}.yaml`, stringify(file));
  }
  git(['read-tree', '--empty']);
  for (const [at, text] of texts)
    git(['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], text)},${at}`]);
  const root = git(['write-tree']);
  rmSync(path.dirname(indexFile), { recursive: true, force: true });
  const parent = (() => {
    try {
      return git(['rev-parse', '--verify', '-q', 'refs/heads/flotilla/status']);
    } catch {
      return '';
    }
  })();
  const commit = git(['commit-tree', root, ...(parent ? ['-p', parent] : []), '-m', 'status']);
  git(['update-ref', 'refs/heads/flotilla/status', commit]);
  return commit;
}
