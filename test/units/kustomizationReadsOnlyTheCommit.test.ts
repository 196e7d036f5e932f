// A kustomization from a pull request reads only the commit: YAML that kustomize reads one way and Flotilla's check
// another (an alias, a merge key, a field written twice or in another case) cannot name a base outside the repository.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { readUnitLayout } from '../../src/units/readUnitLayout.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
// A folder of the host beside the render's private copy (both under the temporary folder): a kustomization there
// reads a file of its own, which kustomize allows for a base.
const host = mkdtempSync(path.join(tmpdir(), 'flotilla-host-secret-'));
writeFileSync(path.join(host, 'kustomization.yaml'), 'configMapGenerator:\n  - name: leak\n    files: [secret.txt]\n');
writeFileSync(path.join(host, 'secret.txt'), 'HOST-SECRET-VALUE\n');
test.after(() => {
  for (const r of repos) r.cleanup();
  rmSync(host, { recursive: true, force: true });
});

// From <tmp>/flotilla-unit-XXXX/src/apps/web, four levels up is the temporary folder.
const outside = `../../../../${path.basename(host)}`;

const variants: Record<string, string> = {
  'a merge key': `<<: {resources: [${outside}]}\n`,
  'an alias': `namePrefix: &p ${outside}\nresources: [*p]\n`,
  'a field written twice': `resources: [ok.yaml]\nresources: [${outside}]\n`,
  'a field in capitals': `RESOURCES: [${outside}]\n`,
  'a field with a long s': `reſources: [${outside}]\n`,
};

for (const [how, kustomization] of Object.entries(variants))
  test(`a kustomization naming a host folder through ${how} is held with a located problem, and nothing of the host is output`, async () => {
    const r = makeConfigRepoWith(
      repos,
      {
        'apps/web/kustomization.yaml': kustomization,
        'apps/web/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
      },
      how,
    );
    const repo = await openRepo(r.dir);
    const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
    const layout = await readUnitLayout(repo, tree, undefined, {});
    const unit = layout.units.find((u) => u.dir === 'apps/web')!;
    const out = await renderUnit(repo, tree, unit);
    assert.not.ok(JSON.stringify(out).includes('HOST-SECRET-VALUE'), 'the host file was output');
    assert.ok(out.unreadable);
    assert.equal(
      out.problems.map((p) => [p.file, p.code]),
      [['apps/web/kustomization.yaml', 'INVALID_VALUE']],
    );
  });

test.run();
