// A policy's schedulerName hands its bindings to that scheduler: Karmada's default scheduler skips them
// (schedulerNameFilter), and Flotilla, whose render is that default scheduler, runs no other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import {
  clusterYaml,
  configMap,
  configMapPolicy,
  makeConfigRepo,
  RENDERED_REF,
  SOURCE_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const withScheduler = (name: string) => `${configMapPolicy(['member1'])}  schedulerName: ${name}\n`;
const MANIFEST = 'clusters/member1/default/configmap_settings.yaml';
const BINDING = 'bindings/default/settings-configmap.yaml';

function fleet(policy: string): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'policies/configmaps.yaml': policy,
    'templates/settings.yaml': configMap('settings'),
  });
  return r;
}

async function sync(r: ConfigRepo) {
  const { reports } = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
  return reports.flatMap((x) => x.problems);
}

test('a template whose policy names another scheduler gets a binding naming it and no cluster, with a warning', async () => {
  const r = fleet(withScheduler('other-scheduler'));
  const problems = await sync(r);
  assert.equal(
    problems.map((p) => `${p.severity} ${p.code} ${p.file}`),
    ['warning SCHEDULER_NOT_RUN policies/configmaps.yaml'],
  );
  assert.match(
    problems[0]!.message,
    'to the scheduler "other-scheduler": Flotilla runs only default-scheduler, so nothing is placed',
  );
  const binding = r.show(RENDERED_REF, BINDING);
  assert.match(binding, 'schedulerName: other-scheduler');
  assert.match(binding, 'clusters: []');
  assert.not.ok(r.ls(RENDERED_REF).includes(MANIFEST));
});

test('handing a placed template to another scheduler keeps the clusters it had; the default scheduler takes it back', async () => {
  const r = fleet(configMapPolicy(['member1']));
  assert.equal(await sync(r), []);
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
  assert.match(r.show(RENDERED_REF, BINDING), 'schedulerName: default-scheduler');

  r.commit({ 'policies/configmaps.yaml': withScheduler('other-scheduler') }, 'hand over');
  const problems = await sync(r);
  assert.match(problems.map((p) => p.message).join('\n'), 'so it keeps the clusters it had');
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
  assert.match(r.show(RENDERED_REF, BINDING), 'name: member1');

  r.commit({ 'policies/configmaps.yaml': withScheduler('default-scheduler') }, 'take back');
  assert.equal(await sync(r), []);
  assert.ok(r.ls(RENDERED_REF).includes(MANIFEST));
  assert.match(r.show(RENDERED_REF, BINDING), 'schedulerName: default-scheduler');
});

test.run();
