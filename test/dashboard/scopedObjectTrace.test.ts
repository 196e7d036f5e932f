// The dashboard's object view of an object scoped overlays output: each cluster's diff starts from its own variant,
// so it shows what Flotilla added (labels, annotations), not the other overlay's values as if an override changed them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readObjectTrace } from '../../src/dashboard/readObjectTrace.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readFleet } from '../../src/views/readFleet.ts';
import { makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';
import { scopedPodinfo } from '../units/unitFixtures.ts';

const RENDERED = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test("the object view diffs each cluster's manifest against that cluster's own variant and names its unit", async () => {
  const r = makeConfigRepoWith(repos, scopedPodinfo(), 'podinfo overlays');
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const fleet = await readFleet(repo, {
    rev: 'refs/heads/main',
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  const trace = await readObjectTrace(fleet, 'helm.toolkit.fluxcd.io/v2/HelmRelease/podinfo/podinfo', {
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  assert.equal(
    trace!.clusters.map((c) => [c.name, c.unit]),
    [
      ['production', 'apps/production/kustomization.yaml'],
      ['staging', 'apps/staging/kustomization.yaml'],
    ],
  );
  for (const c of trace!.clusters) {
    assert.match(c.diff, /\+ {4}karmada\.io\/managed: "true"/, c.name);
    assert.not.match(c.diff, /replicaCount|version:/, `${c.name}: its values are its own variant's`);
  }
});

test.run();
