// A pull request that breaks a Cluster or policy: once merged, the sync keeps the definition the renders so far
// read (test/outputs/lastGoodKarmada.test.ts), so the plan shows that, with the error, not everything it placed removed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { configMap, RENDERED_REF, SOURCE_REF, type ConfigRepo } from '../helpers/fleet.ts';
import { flaggedFleetRepo, flaggedMember1 } from '../helpers/flaggedFleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const member1 = flaggedMember1;
const fleetRepo = () => flaggedFleetRepo(repos);

async function sync(r: ConfigRepo) {
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
}

test("a plan whose head breaks a Cluster shows the error, and the Cluster's workloads kept as the sync will keep them", async () => {
  const r = fleetRepo();
  await sync(r);
  const base = r.git('rev-parse', 'HEAD');
  r.git('checkout', '-q', '-b', 'feature');
  r.commit({ 'clusters/member1.yaml': member1('yes'), 'templates/other.yaml': configMap('other') }, 'break member1');
  const plan = await readPlan(await openRepo(r.dir), { base, head: 'feature' });
  assert.ok(
    plan.errors.some((e) => JSON.stringify(e).includes('clusters/member1.yaml')),
    JSON.stringify(plan.errors),
  );
  assert.equal(plan.clusters.member1?.removed ?? [], [], 'nothing removed from member1');
  assert.equal(
    plan.clusters.member1?.added.map((a) => a.ref),
    ['v1/ConfigMap/default/other'],
    'the new ConfigMap still goes to member1',
  );
});

test.run();
