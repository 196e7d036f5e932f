// What the failover tests render with instead of a live fleet: a fixed clock, and a member's state as the status
// branch records it after it stopped answering.
import { execFileSync } from 'node:child_process';
import { stringify } from 'yaml';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import type { ConfigRepo } from './fleet.ts';

/** 2026-11-29T15:00:00Z: the times the tests write are read against it. */
export const T0 = Date.parse('2026-11-29T15:00:00Z');

/** A clock standing `s` seconds after T0. */
export const at = (s: number) => () => new Date(T0 + s * 1000);

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

/** Commits cluster files to flotilla/status with git's plumbing, as the status writer would lay them out. */
export function commitStatus(r: ConfigRepo, clusters: Record<string, ObservedCluster>): string {
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, {
      cwd: r.dir,
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'Flotilla',
        GIT_AUTHOR_EMAIL: 'f@localhost',
        GIT_COMMITTER_NAME: 'Flotilla',
        GIT_COMMITTER_EMAIL: 'f@localhost',
      },
    }).trim();
  const entries = Object.entries(clusters).map(([name, o]) => {
    const file = {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      ...(o.taints ? { spec: { taints: o.taints } } : {}),
      status: o.status ?? {},
    };
    return `100644 blob ${git(['hash-object', '-w', '--stdin'], stringify(file))}\t${name}.yaml\n`;
  });
  const folder = git(['mktree'], entries.join(''));
  const root = git(['mktree'], `040000 tree ${folder}\tclusters\n`);
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
