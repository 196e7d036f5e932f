import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { PACK_LIMIT } from '../../src/commits/consolidatePacks.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { configMap, makeConfigRepo, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

// A reconciler syncs one commit after another on one open repository, each sync writing a pack: the repository
// keeps a few packs, git finds nothing wrong with it, and every render still verifies.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2, member3]
`;

test('a long run of syncs on one open repository keeps its packs few, readable by git, and every render verifying', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({ ...MEMBERS, 'policies/configmaps.yaml': POLICY, 'templates/app.yaml': configMap('app', 'v0') }, 'start');
  const repo = await openRepo(r.dir);
  const packDir = path.join(r.dir, '.git', 'objects', 'pack');
  const packs = () => readdirSync(packDir).filter((f) => f.endsWith('.idx')).length;
  let most = 0;
  for (let i = 0; i < 3 * PACK_LIMIT; i++) {
    r.commit(
      {
        'templates/app.yaml': configMap('app', `v${i + 1}`),
        [`templates/extra-${i}.yaml`]: configMap(`extra-${i}`, 'x'),
      },
      `change ${i}`,
    );
    const [report] = (await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT })).reports;
    assert.ok(report?.outputCommit, `sync ${i} rendered`);
    most = Math.max(most, packs());
    if (i % PACK_LIMIT === PACK_LIMIT - 1) {
      const verified = await verifyOutput(repo, { outputRef: OUT });
      assert.ok(
        verified.ok,
        JSON.stringify({ i, differs: verified.differs, missing: verified.missing, extra: verified.extra }),
      );
    }
  }
  assert.ok(most <= PACK_LIMIT + 1, `at most ${PACK_LIMIT + 1} packs at any time, saw ${most}`);
  r.git('fsck', '--strict', '--no-dangling');
  assert.match(r.git('show', `flotilla/rendered:clusters/member3/default/configmap_app.yaml`), /v48/);
  assert.is(r.git('rev-list', '--count', 'flotilla/rendered'), String(3 * PACK_LIMIT));
});

test.run();
