// A FederatedResourceQuota through renders, as Karmada's federated-resource-quota-sync controller makes its Works:
// a ResourceQuota of its namespace and name with each static assignment's hard on that cluster, none on a cluster not
// registered until it is, removed from a cluster no longer assigned and everywhere once the quota goes. Each
// incremental render is what a cold one gives (flotilla verify).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from '../outputs/helpers/assertVerifies.ts';

const OUT = 'refs/heads/flotilla/rendered';
const quota = (assignments: string, overall = '{cpu: 10, memory: 4Gi}') =>
  `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata:
  name: team
  namespace: shop
  labels: {tier: gold}
spec:
  overall: ${overall}
  staticAssignments:
${assignments}`;
const M1 = `    - clusterName: member1\n      hard: {memory: 1024Mi, cpu: "0.5"}\n`;
const M2 = '    - clusterName: member2\n      hard: {cpu: 2}\n';
const quotaFiles = (r: ReturnType<typeof makeConfigRepo>) =>
  r.ls('flotilla/rendered').filter((f) => f.endsWith('resourcequota_team.yaml'));

test("each registered cluster a static assignment names gets a ResourceQuota with that assignment's hard, as Karmada's Work holds it", async () => {
  const r = makeConfigRepo();
  try {
    r.commit({ 'clusters/member1.yaml': clusterYaml('member1'), 'quotas/team.yaml': quota(M1 + M2) });
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
    assert.equal(quotaFiles(r), ['clusters/member1/shop/resourcequota_team.yaml']);
    const m = parse(r.show('flotilla/rendered', 'clusters/member1/shop/resourcequota_team.yaml'));
    assert.equal(m.spec, { hard: { cpu: '500m', memory: '1Gi' } }, 'canonical quantities, by name');
    assert.equal(
      Object.keys(m.metadata.labels),
      ['karmada.io/managed', 'work.karmada.io/permanent-id'],
      "none of the quota's labels",
    );
    const { 'flotilla.io/source-commit': _, ...annotations } = m.metadata.annotations;
    assert.equal(annotations, {
      // CreateOrUpdateWork's MergeAnnotation of the built ResourceQuota's UID, which is empty.
      'resourcetemplate.karmada.io/uid': '',
      'work.karmada.io/namespace': 'karmada-es-member1',
      // names.GenerateWorkName("ResourceQuota", "team", "shop"): a ResourceQuota template's Work name.
      'work.karmada.io/name': 'team-6b69cdbc76',
      'resourcetemplate.karmada.io/managed-annotations':
        'resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,resourcetemplate.karmada.io/uid,work.karmada.io/name,work.karmada.io/namespace',
      'resourcetemplate.karmada.io/managed-labels': 'karmada.io/managed,work.karmada.io/permanent-id',
    });
    assert.not.ok(
      r.ls('flotilla/rendered').some((f) => f.startsWith('bindings/')),
      'no binding: no detector',
    );
    await assertVerifies(r);
  } finally {
    r.cleanup();
  }
});

test('a cluster registered after its assignment gets the quota, one removed or no longer assigned loses it, and a deleted quota leaves every member', async () => {
  const r = makeConfigRepo();
  try {
    const git = await openRepo(r.dir);
    const sync = () => syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    r.commit({ 'clusters/member1.yaml': clusterYaml('member1'), 'quotas/team.yaml': quota(M1 + M2) });
    await sync();
    r.commit({ 'clusters/member2.yaml': clusterYaml('member2') });
    await sync();
    assert.equal(quotaFiles(r), [
      'clusters/member1/shop/resourcequota_team.yaml',
      'clusters/member2/shop/resourcequota_team.yaml',
    ]);
    assert.equal(parse(r.show('flotilla/rendered', 'clusters/member2/shop/resourcequota_team.yaml')).spec, {
      hard: { cpu: '2' },
    });
    await assertVerifies(r);

    r.commit({ 'quotas/team.yaml': quota(M1 + M2.replace('member2', 'member3')) });
    await sync();
    assert.equal(quotaFiles(r), ['clusters/member1/shop/resourcequota_team.yaml'], 'member2 no longer assigned');
    await assertVerifies(r);

    r.commit({ 'clusters/member3.yaml': clusterYaml('member3') });
    await sync();
    r.commit({ 'clusters/member1.yaml': null });
    await sync();
    assert.equal(quotaFiles(r), ['clusters/member3/shop/resourcequota_team.yaml']);
    await assertVerifies(r);

    r.commit({ 'quotas/team.yaml': null });
    await sync();
    assert.equal(quotaFiles(r), []);
    await assertVerifies(r);
  } finally {
    r.cleanup();
  }
});

test("a quota Karmada's webhook refuses keeps the ResourceQuotas it made, and a cluster named twice gets the first assignment's hard", async () => {
  const r = makeConfigRepo();
  try {
    const git = await openRepo(r.dir);
    const sync = () => syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: OUT });
    r.commit({ 'clusters/member1.yaml': clusterYaml('member1'), 'quotas/team.yaml': quota(M1) });
    await sync();
    const before = r.show('flotilla/rendered', 'clusters/member1/shop/resourcequota_team.yaml');
    r.commit({ 'quotas/team.yaml': quota(M1, '{cpu: 10}') }); // memory assigned, not in overall
    const out = await sync();
    assert.ok(
      out.reports.at(-1)!.problems.some((p) => p.file === 'quotas/team.yaml' && /not exist in overall/.test(p.message)),
      'refused at its file',
    );
    assert.is(r.show('flotilla/rendered', 'clusters/member1/shop/resourcequota_team.yaml'), before, 'kept');

    r.commit({ 'quotas/team.yaml': quota(`${M1}    - clusterName: member1\n      hard: {cpu: 3}\n`) });
    await sync();
    assert.equal(parse(r.show('flotilla/rendered', 'clusters/member1/shop/resourcequota_team.yaml')).spec, {
      hard: { cpu: '500m', memory: '1Gi' },
    });
    await assertVerifies(r);
  } finally {
    r.cleanup();
  }
});

test.run();
