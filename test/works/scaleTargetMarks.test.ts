// The hpaScaleTargetMarker through real renders of a config repo, cold and incremental: the mark follows the HPA
// (added, retargeted, no longer propagated, deleted) whichever of the pair a commit touches.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const deployment = (name: string, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: ${image}}]}
`;
const hpa = (target: string, apiVersion = 'autoscaling/v2') => `apiVersion: ${apiVersion}
kind: HorizontalPodAutoscaler
metadata: {name: scaler, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${target}}
  minReplicas: 1
  maxReplicas: 5
`;
const policy = (kinds: string[]) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: default}
spec:
  resourceSelectors:
${kinds.map((k) => `    - {apiVersion: ${k.split(' ')[0]}, kind: ${k.split(' ')[1]}}`).join('\n')}
  placement:
    clusterAffinity: {clusterNames: [member1]}
`;
const BOTH = policy([
  'apps/v1 Deployment',
  'autoscaling/v2 HorizontalPodAutoscaler',
  'autoscaling/v1 HorizontalPodAutoscaler',
]);

/** member1 with web and api, web scaled by an HPA, both propagated. */
const WEB_SCALED: Record<string, string> = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'policies/all.yaml': BOTH,
  'templates/web.yaml': deployment('web'),
  'templates/api.yaml': deployment('api'),
  'templates/scaler.yaml': hpa('web'),
};

async function marked(r: ConfigRepo, name: string): Promise<boolean> {
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  // Each incremental render equals a cold render of the same commit, index included.
  const report = await verifyOutput(repo, { outputRef: 'refs/heads/flotilla/rendered' });
  assert.equal([report.differs, report.missing, report.extra], [[], [], []], 'verify replays the render');
  return /resourcetemplate\.karmada\.io\/retain-replicas: "true"/.test(
    r.show('flotilla/rendered', `clusters/member1/default/deployment.apps_${name}.yaml`),
  );
}

test('the mark follows the HPA through edits of either side, retargeting and deletion, rendered incrementally', async () => {
  const r = makeConfigRepoWith(repos, WEB_SCALED, 'web scaled');
  assert.ok(await marked(r, 'web'), 'cold render: the target is marked');
  assert.not.ok(await marked(r, 'api'), 'another workload is not');

  r.commit({ 'templates/web.yaml': deployment('web', 'nginx:1.28') }, 'web edited alone');
  assert.ok(await marked(r, 'web'), 'an edit of the target alone keeps its mark');

  r.commit(
    { 'templates/scaler.yaml': hpa('api', 'autoscaling/v1') },
    'the HPA scales api now, written as autoscaling/v1',
  );
  assert.not.ok(await marked(r, 'web'), 'the old target loses the mark');
  assert.ok(await marked(r, 'api'), 'the new target gets it');

  r.commit({ 'policies/all.yaml': policy(['apps/v1 Deployment']) }, 'HPAs no longer propagated');
  // Its last output stays on the members (POLICY_REMOVED), so it still scales there; Karmada's marker removes the
  // label only when the HPA is deleted or retargets.
  assert.ok(await marked(r, 'api'), 'an HPA its policy let go of still marks its target');
  r.commit({ 'templates/api.yaml': deployment('api', 'nginx:1.28') }, 'api edited alone');
  assert.ok(await marked(r, 'api'), 'also when the target is rendered alone');

  r.commit({ 'policies/all.yaml': BOTH }, 'HPAs propagated again');
  assert.ok(await marked(r, 'api'));
  r.commit({ 'templates/scaler.yaml': null }, 'HPA deleted');
  assert.not.ok(await marked(r, 'api'), 'a deleted HPA takes the mark with it');
});

test('an HPA retargeted after its policy let go of it marks its new target, the same in the sync and in verify', async () => {
  const r = makeConfigRepoWith(repos, WEB_SCALED, 'web scaled');
  assert.ok(await marked(r, 'web'));
  r.commit({ 'policies/all.yaml': policy(['apps/v1 Deployment']) }, 'HPAs no longer propagated');
  assert.ok(await marked(r, 'web'));
  r.commit({ 'templates/scaler.yaml': hpa('api') }, 'the held HPA now names api');
  assert.not.ok(await marked(r, 'web'), 'the old target loses the mark, as Karmada deletes it on a retarget');
  assert.ok(await marked(r, 'api'));
});

test('an HPA never propagated marks nothing (Karmada: hasBeenPropagated)', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy(['apps/v1 Deployment']),
      'templates/web.yaml': deployment('web'),
      'templates/scaler.yaml': hpa('web'),
    },
    'an HPA no policy selects',
  );
  assert.not.ok(await marked(r, 'web'));
});

test.run();
