// One emulated member running Deployments, and what the status side decides of FederatedHPAs in Git about them: the
// set-up the FederatedHPA tests against a member share.
import path from 'node:path';
import * as assert from 'uvu/assert';
import { autoscalerPath, parseAutoscalerDecision } from '../../../src/branches/status/autoscalerDecisions.ts';
import { bindingPath } from '../../../src/branches/rendered/outputPaths.ts';
import { connectKubeconfig } from '../../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../../src/deliveries/KubeTarget.ts';
import { sendRequest } from '../../../src/deliveries/sendRequest.ts';
import { decideFederatedHpas, type DecideInput } from '../../../src/statuses/decideFederatedHpas.ts';
import { waitFor } from '../../deliveries/helpers/e2e.ts';
import { makeFleet, type Fleet } from '../../helpers/fleet.ts';

type Deployment = { metadata: { name: string } };

export interface HpaMember {
  fleet: Fleet;
  kubes: Map<string, KubeTarget>;
  /** Waits until `path` (pods, or their metrics) on member1 lists `count` items. */
  waitForItems(what: string, path: string, count: number): Promise<void>;
  /**
   * A rendered commit placing each Deployment on member1, then a source commit with each as
   * `templates/<name>.yaml` and `files` (its FederatedHPAs).
   */
  commit(files: Record<string, string | null>, message: string): { rendered: string; source: string };
  /** One pass of the status side over those commits; each FederatedHPA's decision by name, if it made one. */
  decide(
    commits: { rendered: string; source: string },
    pass: Pick<DecideInput, 'now' | 'memory'> & Partial<Pick<DecideInput, 'options'>>,
  ): Promise<(name: string) => ReturnType<typeof parseAutoscalerDecision> | undefined>;
  close(): Promise<void>;
}

/** A fleet of one member, member1, on which the Deployments are created (each answered 201). */
export async function startHpaMember(deployments: readonly Deployment[]): Promise<HpaMember> {
  const fleet = await makeFleet({ members: ['member1'] });
  const kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 3_000 });
  const member = kubes.get('member1')!;
  for (const d of deployments) {
    const created = await sendRequest(member, {
      method: 'POST',
      path: '/apis/apps/v1/namespaces/default/deployments',
      body: JSON.stringify(d),
      contentType: 'application/json',
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
  }
  const bindingOf = (d: Deployment) =>
    bindingPath({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: d.metadata.name });
  return {
    fleet,
    kubes,
    waitForItems: (what, listPath, count) =>
      waitFor(
        what,
        async () => {
          const res = await sendRequest(member, { method: 'GET', path: listPath });
          return ((res.body as { items?: unknown[] }).items ?? []).length === count;
        },
        20_000,
        100,
      ).then(() => undefined),
    commit(files, message) {
      const rendered = fleet.work.commit(
        Object.fromEntries(deployments.map((d) => [bindingOf(d), 'spec: {clusters: [{name: member1}]}\n'])),
        'bindings',
      );
      const source = fleet.work.commit(
        {
          ...Object.fromEntries(deployments.map((d) => [bindingOf(d), null])),
          ...Object.fromEntries(deployments.map((d) => [`templates/${d.metadata.name}.yaml`, JSON.stringify(d)])),
          ...files,
        },
        message,
      );
      return { rendered, source };
    },
    async decide({ rendered, source }, pass) {
      const out = await decideFederatedHpas({
        repo: fleet.repo,
        sourceCommit: source,
        renderedCommit: rendered,
        existing: new Map(),
        clusters: kubes,
        ready: new Set(['member1']),
        ...pass,
      });
      return (name) => {
        const text = out.edits.get(autoscalerPath('default', name));
        return text ? parseAutoscalerDecision(text) : undefined;
      };
    },
    async close() {
      await Promise.all([...kubes.values()].map((kube) => kube.close()));
      await fleet.cleanup();
    },
  };
}
