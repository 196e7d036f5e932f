import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { isLibraryChart } from '../../src/units/renderUnit.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { helmGuestbook } from './unitFixtures.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test('a Chart.yaml of type library declares a library chart', () => {
  assert.ok(isLibraryChart('apiVersion: v2\nname: common\nversion: 0.1.0\ntype: library\n'));
  assert.not.ok(isLibraryChart('apiVersion: v2\nname: web\nversion: 0.1.0\ntype: application\n'));
  assert.not.ok(isLibraryChart('apiVersion: v2\nname: web\nversion: 0.1.0\n'));
  assert.not.ok(isLibraryChart('type: [\n'));
});

test('a library chart in a folder of its own renders no objects and no error, beside the charts that render', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'libs/common/Chart.yaml': 'apiVersion: v2\nname: common\nversion: 0.1.0\ntype: library\n',
      'libs/common/templates/_labels.tpl': '{{- define "common.labels" -}}\ntier: web\n{{- end -}}\n',
    },
    'a library chart beside an application chart',
  );
  for (const pass of ['run', 'cached']) {
    const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(model.problems, [], pass);
    assert.equal(
      [...model.templates.keys()].sort(),
      ['apps/v1/Deployment/default/helm-guestbook', 'v1/Service/default/helm-guestbook'],
      pass,
    );
  }
});

test.run();
