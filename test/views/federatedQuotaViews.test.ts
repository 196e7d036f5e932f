// get and describe list a FederatedResourceQuota as kubectl does against Karmada's API server: under its own type
// (the CRD's names, no short name), NAME and the CRD's printer columns OVERALL and OVERALL_USED, its status from the
// status branch; Karmada's API server holds no ResourceQuota for it (its sync controller writes only Works).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { getCommand } from '../../src/commands/getCommand.ts';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { federatedQuotaStatusPath } from '../../src/branches/status/federatedQuotaStatus.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, writeWorkTree } from '../plans/helpers/nginxRepo.ts';
import { makeFleetRepo, RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

let repo: TempRepo;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

const STATUS = `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata:
  namespace: default
  name: team
status:
  overall:
    cpu: "4"
    memory: 4Gi
  overallUsed:
    cpu: 200m
  aggregatedStatus:
    - clusterName: member1
      hard:
        cpu: "1"
      used:
        cpu: 200m
`;

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  writeWorkTree(repo, {
    'quotas/team.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team}
spec:
  overall: {cpu: 4, memory: 4Gi}
  staticAssignments:
    - clusterName: member1
      hard: {cpu: 1, memory: 1Gi}
`,
  });
  commitAll(repo, 'a FederatedResourceQuota');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: STATUS }).trim();
  const env = { GIT_INDEX_FILE: `${repo.path}/.git/status-index` };
  repo.git(['read-tree', 'flotilla/status'], { env });
  repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${federatedQuotaStatusPath('default', 'team')}`], {
    env,
  });
  const tree = repo.git(['write-tree'], { env }).trim();
  const commit = repo.git(['commit-tree', tree, '-p', 'flotilla/status', '-m', 'quota status']).trim();
  repo.git(['update-ref', 'refs/heads/flotilla/status', commit]);
});
test.after(() => repo.cleanup());

const run = (command: typeof getCommand, ...args: string[]) => runReadCommand(command, repo.path, NOW, args);

test("get federatedresourcequota: NAME and the CRD's columns, the status branch's status", async () => {
  for (const word of [
    'federatedresourcequotas',
    'federatedresourcequota',
    'FederatedResourceQuota.policy.karmada.io',
  ]) {
    const table = await run(getCommand, word);
    assert.is(table.code, 0, table.err);
    assert.is(
      table.out,
      'NAME   OVERALL                      OVERALL_USED\nteam   {"cpu":"4","memory":"4Gi"}   {"cpu":"200m"}\n',
    );
  }
  const yaml = parse((await run(getCommand, 'federatedresourcequota', 'team', '-o', 'yaml')).out);
  assert.is(yaml.kind, 'FederatedResourceQuota');
  assert.is(yaml.metadata.namespace, 'default');
  assert.equal(yaml.spec.overall, { cpu: 4, memory: '4Gi' });
  assert.equal(yaml.status.overallUsed, { cpu: '200m' });
  assert.equal(yaml.status.aggregatedStatus, [{ clusterName: 'member1', hard: { cpu: '1' }, used: { cpu: '200m' } }]);
});

test('get federatedresourcequota -A shows its namespace; another namespace has none', async () => {
  const all = await run(getCommand, 'federatedresourcequotas', '-A');
  assert.match(all.out, /^NAMESPACE +NAME +OVERALL +OVERALL_USED\ndefault +team +/);
  const other = await run(getCommand, 'federatedresourcequotas', '-n', 'shop');
  assert.is(other.out, '');
  assert.match(other.err, /No resources found in shop namespace/);
});

test('describe federatedresourcequota: the generic describer over the quota and its status', async () => {
  const out = await run(describeCommand, 'federatedresourcequota', 'team');
  assert.is(out.code, 0, out.err);
  assert.match(out.out, /^Name: +team\nNamespace: +default\n/);
  assert.match(out.out, /\nKind: +FederatedResourceQuota\n/);
  assert.match(out.out, /\nStatus:\n +Aggregated Status:\n/);
  assert.match(out.out, /\n +Overall Used:\n +Cpu: +200m\n/);
});

test("get resourcequota: Karmada's API server holds no ResourceQuota for the quota; its member has the copy", async () => {
  const listed = await run(getCommand, 'resourcequotas');
  assert.is(listed.out, '');
  const member = await run(getCommand, 'resourcequotas', '--cluster', 'member1', '-o', 'yaml');
  assert.equal(parse(member.out).items[0].spec.hard, { cpu: '1', memory: '1Gi' });
});

test.run();
