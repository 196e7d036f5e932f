// A broken Cluster keeps the definition its render kept (test/outputs/lastGoodKarmada.test.ts): `flotilla explain`
// and the dashboard's one-template view say where a template went as that render placed it, member1 included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { explainTemplate } from '../../src/dashboard/explainTemplate.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readExplanations } from '../../src/views/readExplanations.ts';
import { configMap, RENDERED_REF, SOURCE_REF, type ConfigRepo } from '../helpers/fleet.ts';
import { flaggedFleetRepo, flaggedMember1 } from '../helpers/flaggedFleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const APP = 'v1/ConfigMap/default/app';
const OTHER = 'v1/ConfigMap/default/other';

test('explain places templates on a Cluster held at its last good definition, as the render did', async () => {
  const r = flaggedFleetRepo(repos);
  const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
  await sync();
  r.commit({ 'clusters/member1.yaml': flaggedMember1('yes') }, 'unquoted: a boolean, refused');
  await sync();
  r.commit({ 'templates/other.yaml': configMap('other') }, 'another ConfigMap');
  await sync();
  const now = new Date('2026-02-01T00:00:00Z');
  const git = await openRepo(r.dir);
  const whole = await readExplanations(git, { rev: SOURCE_REF, outputRef: RENDERED_REF, now });
  const refs = { source: SOURCE_REF, rendered: RENDERED_REF, status: 'refs/heads/flotilla/status' };
  for (const key of [APP, OTHER]) {
    assert.equal(
      whole.output.explanations.get(key)?.clusters.map((c) => c.name),
      ['member1'],
      `explain: ${key}`,
    );
    const one = await explainTemplate(git, key, refs, now);
    assert.equal(
      one?.explanation?.clusters.map((c) => c.name),
      ['member1'],
      `the dashboard: ${key}`,
    );
  }
});

test.run();
