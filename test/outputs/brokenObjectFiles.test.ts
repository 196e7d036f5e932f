import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { configMap, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

// A file holding a broken object is read again on every sync (its problems stay listed): its good objects, in any
// namespace, must not stop a later change from rendering.

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policyIn = (namespace: string, name: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: ${name}}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

test('a file with a broken object does not stop a later policy change in another namespace from rendering', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/team-b.yaml': `${configMap('good', 'x', 'default')}---\n${configMap('bad', 'x', 'Bad_NS')}`,
      'policies/default.yaml': policyIn('default', 'good'),
    },
    'a good and a broken ConfigMap in one file',
  );
  const render = async () => renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.ok((await render()).outputCommit);
  r.commit(
    { 'policies/other.yaml': policyIn('other', 'zzz'), 'templates/zzz.yaml': configMap('zzz', 'x', 'other') },
    'another team',
  );
  const second = await render();
  assert.ok(second.outputCommit);
  assert.ok(
    r.ls('flotilla/rendered').includes('clusters/member1/other/configmap_zzz.yaml'),
    r.ls('flotilla/rendered').join('\n'),
  );
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.equal([verified.missing, verified.extra, verified.differs], [[], [], []]);
});

test.run();
