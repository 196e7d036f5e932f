// The operator's fix for what a render held for its size (COMMIT_TOO_LARGE, a source too large to read) is to raise
// --max-output-bytes or --max-source-files: the next sync renders what was held, with nothing pushed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { RenderLimits } from '../../src/outputs/sourceLimits.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { configMap, configMapPolicy, MEMBERS, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

async function fleet() {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/small.yaml': configMap('small'),
      'policies/configmaps.yaml': configMapPolicy(['member1']),
    },
    'a small ConfigMap on member1',
  );
  const repo = await openRepo(r.dir);
  const sync = (limits?: RenderLimits) =>
    syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, ...(limits ? { limits } : {}) });
  await sync();
  return { r, sync };
}

const BIG = 'clusters/member1/default/configmap_big.yaml';

test('a template held for the bytes one render may write renders at the next sync once the limit is raised', async () => {
  const { r, sync } = await fleet();
  r.commit({ 'templates/big.yaml': configMap('big', 'x'.repeat(4000)) }, 'a ConfigMap of 4 KB');
  const held = (await sync({ maxOutputBytes: 2000 })).reports;
  assert.equal(
    held[0]!.problems.map((p) => p.code),
    ['COMMIT_TOO_LARGE'],
  );
  assert.not.ok(r.ls('flotilla/rendered').includes(BIG));
  await assertVerifies(r); // replayed with the 2,000 bytes it records, the ConfigMap is held there too
  assert.is((await sync({ maxOutputBytes: 2000 })).reports.length, 0, 'the same limit: nothing to render again');
  // Raised (here to the default), nothing pushed: the ConfigMap renders.
  const raised = (await sync()).reports;
  assert.is(raised.length, 1);
  assert.equal(raised[0]!.problems, []);
  assert.ok(r.ls('flotilla/rendered').includes(BIG));
  assert.is((await sync()).reports.length, 0, 'rendered: nothing held is left');
  await assertVerifies(r);
});

test('a source held whole for its size renders at the next sync once --max-source-files is raised', async () => {
  const { r, sync } = await fleet();
  const many = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [`templates/many/cm-${i}.yaml`, configMap(`cm-${i}`)]),
  );
  r.commit(many, 'thirty ConfigMaps');
  const held = (await sync({ maxSourceFiles: 1 })).reports;
  assert.ok(
    held[0]!.problems.some((p) => p.code === 'COMMIT_TOO_LARGE'),
    held[0]!.problems.map((p) => p.code).join(', '),
  );
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/configmap_cm-0.yaml'));
  const raised = (await sync({ maxSourceFiles: 1000 })).reports;
  assert.is(raised.length, 1);
  assert.equal(raised[0]!.problems, []);
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/configmap_cm-29.yaml'));
  await assertVerifies(r);
});

test.run();
