// A FederatedResourceQuota has its status as soon as it exists, as Karmada's federated-resource-quota-status
// controller writes it on the quota's own create and update events: overall at once, even when no cluster it assigns
// is registered (no member ever reports on its ResourceQuota); a changed overall is written again, a deleted quota's
// file goes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { readTextFiles } from '../../src/commits/readPathOids.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { renderedQuotaStatusFiles } from '../../src/statuses/buildStatusFiles.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';

const RENDERED = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const PATH = 'federatedresourcequotas/default/team.yaml';

const quota = (cpu: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team, namespace: default}
spec:
  overall: {cpu: ${cpu}, memory: 4Gi}
  staticAssignments:
    - clusterName: unregistered
      hard: {cpu: 1}
`;

let repo: TempRepo;
let git: GitRepo;
test.before(async () => {
  ({ repo } = makeNginxRepo());
  git = await openRepo(repo.path);
});
test.after(() => repo.cleanup());

/** A sync, then a status write with no member reporting anything. */
async function syncAndWrite(): Promise<string | undefined> {
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  await writeStatus({ repo: git, reports: [], renderedCommit: (await readRef(git, RENDERED))! });
  const head = await readRef(git, STATUS);
  if (!head) return undefined;
  return (await readTextFiles(git, (await readCommitInfo(git, head)).tree, [PATH])).get(PATH);
}

test('a quota whose clusters are all unregistered has its overall at once; a change and a deletion follow', async () => {
  writeWorkTree(repo, { 'quotas/team.yaml': quota('4') });
  commitAll(repo, 'a quota');
  assert.equal(parse((await syncAndWrite())!).status, { overall: { cpu: '4', memory: '4Gi' } });
  writeWorkTree(repo, { 'quotas/team.yaml': quota('"6"') });
  commitAll(repo, 'more cpu');
  assert.equal(parse((await syncAndWrite())!).status, { overall: { cpu: '6', memory: '4Gi' } });
  repo.git(['rm', '-q', 'quotas/team.yaml']);
  commitAll(repo, 'no quota');
  assert.is(await syncAndWrite(), undefined);
});

test("a quota's status file is made from what its ResourceQuota's template status file holds", () => {
  const ref = { apiVersion: 'v1', kind: 'ResourceQuota', namespace: 'default', name: 'team' };
  const template = `apiVersion: v1
kind: ResourceQuota
metadata: {name: team, namespace: default}
conditions: []
aggregatedStatus:
  - clusterName: member1
    applied: true
    health: Healthy
    status: {hard: {cpu: "1"}, used: {cpu: 500m}}
`;
  const existing = new Map([[templateStatusPath(ref), template]]);
  const edits = renderedQuotaStatusFiles(existing, [{ ref, overall: { cpu: '4' } }], []);
  assert.equal(parse(edits.get(PATH)!).status, {
    overall: { cpu: '4' },
    overallUsed: { cpu: '500m' },
    aggregatedStatus: [{ clusterName: 'member1', hard: { cpu: '1' }, used: { cpu: '500m' } }],
  });
  // Written already: nothing to change; the quota gone, its file goes.
  existing.set(PATH, edits.get(PATH)!);
  assert.is(renderedQuotaStatusFiles(existing, [{ ref, overall: { cpu: '4' } }], [PATH]).size, 0);
  assert.equal([...renderedQuotaStatusFiles(existing, [], [PATH])], [[PATH, null]]);
});

test.run();
