// A config repo with all three branches: main (nginx + three members), flotilla/rendered from syncRepo, and
// flotilla/status written by writeStatus from the reports an applier pass would give.
import { readCommitInfo } from '../../../src/commits/readCommitInfo.ts';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { readRef } from '../../../src/commits/readRef.ts';
import type { GitRepo } from '../../../src/commits/types.ts';
import type { ApplyResult } from '../../../src/deliveries/types.ts';
import { parseTrailers } from '../../../src/branches/rendered/trailers.ts';
import { syncRepo } from '../../../src/outputs/syncRepo.ts';
import type { ClusterReport } from '../../../src/statuses/buildStatusFiles.ts';
import { writeStatus } from '../../../src/statuses/writeStatus.ts';
import { makeNginxRepo, type TempRepo } from '../../plans/helpers/nginxRepo.ts';
import type { ReadCommandContext } from '../../../src/commands/getCommand.ts';

export const NGINX = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' };
export const RENDERED = 'refs/heads/flotilla/rendered';

export function liveNginx(replicas: number, ready: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', generation: 1 },
    spec: { replicas },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: ready,
      availableReplicas: ready,
    },
  };
}

/** One applier pass as the reconciler reports it: nginx applied on each named cluster, which is Ready. */
export async function reportApplied(
  git: GitRepo,
  clusters: Record<string, ApplyResult[]>,
  time = new Date('2026-02-01T00:00:00Z'),
) {
  const rendered = (await readRef(git, RENDERED))!;
  const info = await readCommitInfo(git, rendered);
  const reports: ClusterReport[] = Object.entries(clusters).map(([cluster, results]) => ({
    cluster,
    status: {
      kubernetesVersion: 'v1.32.0',
      conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady' }],
      nodeSummary: { totalNum: 3, readyNum: 3 },
      resourceSummary: { allocatable: { cpu: '12', memory: '48Gi' }, allocated: { cpu: '500m' } },
    },
    delivery: {
      cluster,
      results,
      inventory: results.map((r) => r.ref),
      previousInventory: [],
      writes: results.length,
      notes: [],
      durationMs: 1,
    },
  }));
  return writeStatus({
    repo: git,
    reports,
    renderedCommit: rendered,
    sourceCommit: parseTrailers(info.message)['Source-Commit']!,
    now: () => time,
  });
}

export async function makeFleetRepo(): Promise<{ repo: TempRepo; git: GitRepo; base: string }> {
  const { repo, base } = makeNginxRepo();
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  await reportApplied(git, {
    member1: [
      {
        ref: NGINX,
        path: 'clusters/member1/default/deployment.apps_nginx.yaml',
        action: 'created',
        message: 'created',
        live: liveNginx(1, 1),
      },
    ],
    member2: [
      {
        ref: NGINX,
        path: 'clusters/member2/default/deployment.apps_nginx.yaml',
        action: 'created',
        message: 'created',
        live: liveNginx(1, 1),
      },
    ],
  });
  return { repo, git, base };
}

/** A read command (get, describe) on `repoPath` with the clock at `now`: its exit code and what it printed. */
export async function runReadCommand(
  command: (argv: string[], ctx: ReadCommandContext) => Promise<number>,
  repoPath: string,
  now: Date,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command([...args, '--repo', repoPath], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    now: () => now,
  });
  return { code, out, err };
}
