// A FederatedResourceQuota's status through Git and two emulated members: each member's ResourceQuota counts what its
// namespace runs (kube-controller-manager's quota controller), the status pass reads it back, and the status branch
// holds the quota's status as Karmada's federated-resource-quota-status controller writes it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce, reconcileStatusOnce } from '../../src/reconcile.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { readTextFiles } from '../../src/commits/readPathOids.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, waitFor, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet;
const OUTPUT = 'refs/heads/flotilla/rendered';
const QUOTA_STATUS = 'federatedresourcequotas/shop/team.yaml';

const quota = (overallCpu: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team, namespace: shop}
spec:
  overall: {cpu: ${overallCpu}, memory: 4Gi, pods: 10}
  staticAssignments:
    - clusterName: member2
      hard: {cpu: "1.5", memory: 1Gi, pods: 4}
    - clusterName: member1
      hard: {cpu: 1, memory: 2048Mi, pods: 5}
`;

const files = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'templates/shop.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
  'templates/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 200m, memory: 128Mi}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`,
  'quotas/team.yaml': quota('4'),
};

const full = () =>
  reconcileOnce({
    repo: fleet.repo,
    sourceRef: 'refs/heads/main',
    outputRef: OUTPUT,
    clusters: fleet.kubes,
    render: true,
    log: () => {},
  });
const quotaStatus = async () => {
  const head = await readRef(fleet.repo, 'refs/heads/flotilla/status');
  if (!head) return undefined;
  const text = (await readTextFiles(fleet.repo, (await readCommitInfo(fleet.repo, head)).tree, [QUOTA_STATUS])).get(
    QUOTA_STATUS,
  );
  return text === undefined ? undefined : { text, file: parse(text) };
};

test.before(async () => {
  fleet = await startMemberFleet(['member1', 'member2'], files, 'a quota over web in shop');
  await full();
});

test.after(async () => {
  await fleet?.cleanup();
});

test("the status branch holds a FederatedResourceQuota's status summed from its members' ResourceQuotas", async () => {
  const seen = await waitFor(
    'both members count their two pods',
    async () => {
      await reconcileStatusOnce({ repo: fleet.repo, outputRef: OUTPUT, clusters: fleet.kubes, log: () => {} });
      const s = await quotaStatus();
      const items = s?.file.status.aggregatedStatus ?? [];
      return items.length === 2 && items.every((i: { used?: { pods?: string } }) => i.used?.pods === '2')
        ? s
        : undefined;
    },
    30_000,
    200,
  );
  assert.equal(seen.file, {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { namespace: 'shop', name: 'team' },
    status: {
      overall: { cpu: '4', memory: '4Gi', pods: '10' },
      overallUsed: { cpu: '400m', memory: '256Mi', pods: '4' },
      aggregatedStatus: [
        {
          clusterName: 'member1',
          hard: { cpu: '1', memory: '2Gi', pods: '5' },
          used: { cpu: '200m', memory: '128Mi', pods: '2' },
        },
        {
          clusterName: 'member2',
          hard: { cpu: '1500m', memory: '1Gi', pods: '4' },
          used: { cpu: '200m', memory: '128Mi', pods: '2' },
        },
      ],
    },
  });
  const schema = JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, '../../docs/schemas/status-federatedresourcequota.schema.json'),
      'utf8',
    ),
  );
  const validate = new Ajv({ strict: false }).compile(schema);
  assert.ok(validate(seen.file), JSON.stringify(validate.errors));

  // A new overall is the status's at the next write; the quota gone, its status goes too.
  fleet.config.commit({ 'quotas/team.yaml': quota('"6"') }, 'more cpu overall');
  await full();
  await reconcileStatusOnce({ repo: fleet.repo, outputRef: OUTPUT, clusters: fleet.kubes, log: () => {} });
  assert.equal((await quotaStatus())?.file.status.overall, { cpu: '6', memory: '4Gi', pods: '10' });
  fleet.config.commit({ 'quotas/team.yaml': null }, 'no quota');
  await full();
  await reconcileStatusOnce({ repo: fleet.repo, outputRef: OUTPUT, clusters: fleet.kubes, log: () => {} });
  assert.is(await quotaStatus(), undefined);
});

test.run();
