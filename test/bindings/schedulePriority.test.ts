// detector.BuildResourceBinding under PriorityBasedScheduling (beta, on by default): a policy's schedulePriority names
// a PriorityClass (source KubePriorityClass) whose value the ResourceBinding records; without that class Karmada's
// detector builds no binding and retries (schedule_priority e2e: "ResourceBinding should inherit priority from
// propagationPolicy", "ResourceBinding should not be created").
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { clusterYaml, deployment, makeConfigRepo, manifestOf, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

const policy = (
  className: string,
  selector = '{apiVersion: apps/v1, kind: Deployment}',
) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: prioritised}
spec:
  resourceSelectors: [${selector}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  schedulePriority: {priorityClassSource: KubePriorityClass, priorityClassName: ${className}}
`;
const priorityClass = (name: string, value: number) =>
  `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\nvalue: ${value}\n`;

async function fleet(files: Record<string, string>) {
  const r = makeConfigRepo();
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    ...files,
  });
  const repo = await openRepo(r.dir);
  const sync = async () =>
    (await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF })).reports.flatMap((x) => x.problems);
  const spec = (path: string) =>
    (parseYamlValue(r.show(RENDERED_REF, path)) as { spec: { schedulePriority?: unknown } }).spec;
  const has = (path: string) => r.ls(RENDERED_REF).includes(path);
  const claimedBy = (path: string) =>
    (parseYamlValue(r.show(RENDERED_REF, path)) as { metadata: { annotations?: Record<string, string> } }).metadata
      .annotations?.['clusterpropagationpolicy.karmada.io/name'];
  const verified = async () => {
    const report = await verifyOutput(repo, { outputRef: RENDERED_REF });
    return report.ok || `${report.differs} ${report.missing} ${report.extra}`;
  };
  return { r, sync, spec, has, claimedBy, verified };
}

const BINDING = 'bindings/default/web-deployment.yaml';

test('a ResourceBinding records the value of the PriorityClass its policy names, on every later render too', async () => {
  const f = await fleet({
    'templates/priority.yaml': priorityClass('test-priority', 1000),
    'templates/web.yaml': deployment('web', 2),
    'policies/prioritised.yaml': policy('test-priority'),
  });
  try {
    assert.equal(await f.sync(), []);
    assert.equal(f.spec(BINDING).schedulePriority, { priority: 1000 });
    // A change to the Deployment alone: the class, in a file the change did not touch, is read for its value.
    f.r.commit({ 'templates/web.yaml': deployment('web', 3) }, 'three replicas');
    assert.equal(await f.sync(), []);
    assert.equal(f.spec(BINDING).schedulePriority, { priority: 1000 });
    assert.is((f.spec(BINDING) as { replicas?: number }).replicas, 3, 'rendered again, not held');
  } finally {
    f.r.cleanup();
  }
});

test('a PriorityClass of value 0 gives an empty schedulePriority (omitempty), and a ClusterResourceBinding gets none', async () => {
  const f = await fleet({
    'templates/priority.yaml': priorityClass('zero', 0),
    'templates/web.yaml': deployment('web', 2),
    'templates/reader.yaml':
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\nrules: []\n',
    'policies/prioritised.yaml': policy(
      'zero',
      '{apiVersion: apps/v1, kind: Deployment}, {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}',
    ),
  });
  try {
    await f.sync();
    assert.equal(f.spec(BINDING).schedulePriority, {});
    assert.is(f.spec('bindings/_cluster/reader-clusterrole.yaml').schedulePriority, undefined);
  } finally {
    f.r.cleanup();
  }
});

test('a policy naming a PriorityClass the commit lacks builds no binding: the template waits, with an error, until the class is added', async () => {
  const f = await fleet({
    'templates/web.yaml': deployment('web', 2),
    'policies/prioritised.yaml': policy('missing-class'),
  });
  try {
    const problems = await f.sync();
    assert.equal(
      problems.map((p) => `${p.severity} ${p.code} ${p.file}`),
      ['error PRIORITY_CLASS_MISSING policies/prioritised.yaml'],
    );
    assert.match(problems[0]!.fix, 'add the PriorityClass missing-class');
    assert.not.ok(f.has(BINDING), 'no binding');
    assert.not.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')), 'nothing placed');
    // The commit that adds the class does not touch the Deployment: the waiting template is rendered again anyway.
    f.r.commit({ 'templates/priority.yaml': priorityClass('missing-class', 7) }, 'add the class');
    assert.equal(await f.sync(), []);
    assert.equal(f.spec(BINDING).schedulePriority, { priority: 7 });
    assert.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')));
  } finally {
    f.r.cleanup();
  }
});

test('a policy whose schedulePriority names no PriorityClass builds no binding: Karmada looks up the empty name and finds none', async () => {
  // The CRD requires priorityClassName, but the webhook's round trip writes a missing one as "" (no omitempty), which
  // the detector's GetPriorityClassByName cannot find.
  const f = await fleet({
    'templates/priority.yaml': priorityClass('test-priority', 1000),
    'templates/web.yaml': deployment('web', 2),
    'policies/prioritised.yaml': policy('test-priority').replace(', priorityClassName: test-priority', ''),
  });
  try {
    const problems = await f.sync();
    assert.equal(
      problems.map((p) => `${p.severity} ${p.code} ${p.file}`),
      ['error PRIORITY_CLASS_MISSING policies/prioritised.yaml'],
    );
    assert.match(problems[0]!.message, 'empty priorityClassName');
    assert.match(
      problems[0]!.fix,
      'set spec.schedulePriority.priorityClassName of ClusterPropagationPolicy prioritised',
    );
    assert.not.ok(f.has(BINDING), 'no binding');
    assert.not.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')), 'nothing placed');
  } finally {
    f.r.cleanup();
  }
});

const urgent = (clusters = '[member1]') => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: urgent}
spec:
  priority: 10
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: ${clusters}}}
`;

test('a policy whose PriorityClass is missing keeps its claim: a better policy added later does not take the template, until the class builds the binding', async () => {
  // Karmada's detector claims the template (ClaimPolicyForObject) before BuildResourceBinding fails on the class: the
  // claim is on the template, so a later policy with a higher priority finds it claimed (preemption is off).
  const f = await fleet({
    'templates/web.yaml': deployment('web', 2),
    'templates/api.yaml': deployment('api', 1),
    'policies/prioritised.yaml': policy('missing-class'),
  });
  try {
    const problems = await f.sync();
    assert.equal(
      problems.map((p) => `${p.severity} ${p.code} ${p.file}:${p.line}`),
      ['error PRIORITY_CLASS_MISSING policies/prioritised.yaml:1'],
      'one error, at the policy, for both templates it claims',
    );
    assert.match(problems[0]!.message, 'it claims Deployment default/api, Deployment default/web');
    assert.is(await f.verified(), true);

    f.r.commit({ 'policies/urgent.yaml': urgent() }, 'a better policy');
    assert.equal(
      (await f.sync()).map((p) => `${p.code} ${p.file}`),
      ['PRIORITY_CLASS_MISSING policies/prioritised.yaml'],
    );
    assert.not.ok(f.has(BINDING), 'still no binding: urgent does not take the claimed template');
    assert.not.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')), 'nothing placed');
    assert.is(await f.verified(), true, 'a replay from the bindings alone knows the claim too');

    f.r.commit({ 'templates/priority.yaml': priorityClass('missing-class', 7) }, 'add the class');
    assert.equal(await f.sync(), []);
    assert.is(f.claimedBy(BINDING), 'prioritised', 'the claiming policy builds the binding');
    assert.equal(f.spec(BINDING).schedulePriority, { priority: 7 });
    assert.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')));
    assert.is(await f.verified(), true);
  } finally {
    f.r.cleanup();
  }
});

test('a template its policy let go of, claimed by one whose PriorityClass is missing, keeps its output and that claim', async () => {
  // `first` placed it; deleting `first` releases it (Karmada cleans the claim, keeps binding and Works), the detector
  // matches afresh and `prioritised` claims it, then fails on the class: a better policy added next does not take it.
  const first = policy('unused')
    .replace('name: prioritised', 'name: first')
    .replace(/\n {2}schedulePriority.*\n/, '\n');
  const f = await fleet({
    'templates/web.yaml': deployment('web', 2),
    'policies/first.yaml': first,
  });
  try {
    assert.equal(await f.sync(), []);
    assert.is(f.claimedBy(BINDING), 'first');
    f.r.commit(
      { 'policies/first.yaml': null, 'policies/prioritised.yaml': policy('missing-class') },
      'another policy, whose class is missing',
    );
    assert.equal(
      (await f.sync()).map((p) => `${p.code} ${p.file}`),
      ['PRIORITY_CLASS_MISSING policies/prioritised.yaml'],
    );
    assert.is(f.claimedBy(BINDING), undefined, "the binding lost first's claim and has none yet");
    assert.ok(f.has(manifestOf('member1', 'Deployment', 'web', 'default', 'apps')), 'its last output is kept');
    assert.is(await f.verified(), true);

    f.r.commit({ 'policies/urgent.yaml': urgent('[member1, member2]') }, 'a better policy');
    await f.sync();
    assert.is(f.claimedBy(BINDING), undefined, 'urgent does not take it');
    assert.not.ok(f.has(manifestOf('member2', 'Deployment', 'web', 'default', 'apps')));
    assert.is(await f.verified(), true);
  } finally {
    f.r.cleanup();
  }
});

test.run();
