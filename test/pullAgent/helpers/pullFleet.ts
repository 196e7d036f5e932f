// A fleet whose members are all Pull: the reconciler only renders, and each member's agent pass delivers.
import * as assert from 'uvu/assert';
import { runAgentPass } from '../../../src/pullAgent.ts';
import { reconcileOnce } from '../../../src/reconcile.ts';
import type { MemberFleet } from '../../deliveries/helpers/e2e.ts';

/** One render of the fleet's source, delivering to no member (Pull members fetch it themselves). */
export async function renderOnly(fleet: MemberFleet): Promise<void> {
  await reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: new Map(),
    render: true,
    log: () => {},
  });
}

/** One pass of `cluster`'s agent against the fleet's repo; fails the test with the agent's problems. */
export async function agentPass(fleet: MemberFleet, cluster: string): Promise<void> {
  const r = await runAgentPass({
    cluster,
    kube: fleet.kubes.get(cluster)!,
    source: { kind: 'local', repo: fleet.repo },
    log: () => {},
  });
  assert.ok(r.ok, r.problems.join('\n'));
}
