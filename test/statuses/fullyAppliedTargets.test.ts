// FullyApplied on the status branch is judged against what the render targeted (the rendered index), as Karmada
// judges it against the binding's clusters: one member's report is not the whole fleet's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import type { ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import {
  configMap,
  configMapPolicy,
  makeConfigRepoWith,
  MEMBERS,
  RENDERED_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' };
const applied = (cluster: string): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results: [{ ref: settings, action: 'created', message: 'created', live: { ...settings, data: { k: 'v' } } }],
    inventory: [settings],
    previousInventory: [],
    writes: 1,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});

test('a template placed on two members is FullyApplied once both report it applied, not when the first does', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cms.yaml': configMapPolicy(['member1', 'member2']),
      'templates/settings.yaml': configMap('settings', { k: 'v' }),
    },
    'settings on two members',
  );
  const repo = await openRepo(r.dir);
  const report = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  const renderedCommit = report.outputCommit!;
  const condition = async () => {
    const status = r.git('rev-parse', 'refs/heads/flotilla/status');
    return parse(r.show(status, templateStatusPath(settings))).conditions[0];
  };
  await writeStatus({ repo, reports: [applied('member1')], renderedCommit });
  const first = await condition();
  assert.is(first.status, 'False');
  assert.match(first.message, 'no status yet from member2');
  await writeStatus({ repo, reports: [applied('member2')], renderedCommit });
  assert.is((await condition()).status, 'True');
});

test.run();
