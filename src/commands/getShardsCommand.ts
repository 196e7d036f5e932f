import { parseArgs } from 'node:util';
import path from 'node:path';
import { openRepo } from '../commits/openRepo.ts';
import { UsageError } from '../errors/UsageError.ts';
import type { HostClusterSource } from '../leases/connectHostCluster.ts';
import { LEADER_LEASE, REPLICA_SELECTOR } from '../shards/planClaims.ts';
import { printTable } from '../views/printTable.ts';
import { readShards, shardTable } from '../views/readShards.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { render, type ReadCommandContext } from './getCommand.ts';

export const GET_SHARDS_USAGE = `usage: flotilla get shards [-o wide|json|yaml] [--repo DIR]
       [--leader-elect-kubeconfig FILE [--leader-elect-context C]] [--leader-elect-resource-namespace flotilla-system]

Who leads and which replica applies which Push cluster, from the Leases of \`flotilla run --leader-elect\` on the
host cluster (in a pod: its service account). With --repo, each cluster's object count on the rendered branch.`;

const OPTIONS = {
  repo: { type: 'string' },
  'rendered-branch': { type: 'string', default: RENDERED_BRANCH },
  'leader-elect-kubeconfig': { type: 'string' },
  'leader-elect-context': { type: 'string' },
  'leader-elect-resource-namespace': { type: 'string', default: 'flotilla-system' },
  output: { type: 'string', short: 'o', default: 'text' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `flotilla get shards`: the replicas' Leases as a table (or the whole picture as JSON/YAML). */
export async function getShardsCommand(
  argv: string[],
  ctx: ReadCommandContext & { inCluster?: { host: string; port: string } | undefined; cwd?: string },
): Promise<number> {
  const { values } = parseArgs({ args: argv, options: OPTIONS });
  if (values.help) {
    ctx.out(`${GET_SHARDS_USAGE}\n`);
    return 0;
  }
  const output = values.output ?? 'text';
  if (!['text', 'wide', 'yaml', 'json'].includes(output)) throw new UsageError(`-o ${output}: use wide, yaml or json`);
  let host: HostClusterSource;
  const kubeconfig = values['leader-elect-kubeconfig'];
  if (kubeconfig)
    host = {
      kind: 'kubeconfig',
      file: path.resolve(ctx.cwd ?? '.', kubeconfig),
      context: values['leader-elect-context'],
    };
  else if (ctx.inCluster) host = { kind: 'in-cluster', ...ctx.inCluster };
  else
    throw new UsageError(
      `get shards needs the host cluster of the Leases: --leader-elect-kubeconfig FILE\n${GET_SHARDS_USAGE}`,
    );
  const namespace = values['leader-elect-resource-namespace'] ?? 'flotilla-system';
  // Imported once the flags are read: --help and a usage error answer without the Kubernetes client.
  const [{ connectHostCluster }, { kubeLeaseClient }, { readShardWeights }] = await Promise.all([
    import('../leases/connectHostCluster.ts'),
    import('../leases/LeaseClient.ts'),
    import('../passes/replicaCoordination.ts'),
  ]);
  const kube = await connectHostCluster(host);
  try {
    const client = kubeLeaseClient(kube);
    const [leader, replicas] = await Promise.all([
      client.get(namespace, LEADER_LEASE, 10_000),
      client.list(namespace, REPLICA_SELECTOR, 10_000),
    ]);
    const weights = values.repo
      ? await readShardWeights(
          await openRepo(values.repo),
          `refs/heads/${values['rendered-branch'] ?? RENDERED_BRANCH}`,
        )
      : undefined;
    const now = ctx.now().getTime();
    const shards = readShards(leader, replicas, weights, now);
    if (output === 'json' || output === 'yaml') {
      ctx.out(render(output, { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, ...shards }));
      return 0;
    }
    if (shards.replicas.length === 0 && shards.unowned.length === 0) {
      ctx.err(`No replicas found in ${namespace} namespace.\n`);
      return 0;
    }
    const table = shardTable(shards, output === 'wide', now);
    ctx.out(printTable(table.headers, table.rows));
    return 0;
  } finally {
    await kube.close();
  }
}
