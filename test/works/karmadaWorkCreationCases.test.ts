// Karmada's Work creation (pkg/controllers/ctrlutil/work.go CreateOrUpdateWork, tested in work_test.go
// TestCreateOrUpdateWork), on Flotilla's side: each cluster's manifest on flotilla/rendered is the Work's one
// manifest. CreateOrUpdateWork takes the workload after replica revision and overrides, labels it
// karmada.io/managed, annotates it with the Work's name, namespace and conflict resolution, and runs
// prune.RemoveIrrelevantFields(RemoveJobTTLSeconds) on it before writing the Work (the Work's mutating webhook,
// pkg/webhook/work/mutating.go, prunes it again); an update replaces the Work's manifests whole.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ResourceBinding, TargetCluster } from '../../src/api/binding.ts';
import type { ConfigModel, Located, Template } from '../../src/api/model.ts';
import type { OverridePolicy } from '../../src/api/policy.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { workName } from '../../src/names/workName.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { renderWorkManifest } from '../../src/works/renderWorkManifest.ts';
import { clusterYaml, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';
import { memberCluster, modelOf, overridePolicy, propagationPolicy, templateOf } from '../helpers/inMemoryModel.ts';

const member1 = memberCluster('member1');
const everything = propagationPolicy('everything', {
  resourceSelectors: [
    { apiVersion: 'batch/v1', kind: 'Job' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  placement: { clusterAffinity: { clusterNames: ['member1'] } },
});

type Manifest = {
  metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: Record<string, unknown>;
};

/** The Work manifest `template` gets on member1, claimed by `everything`, with `overrides` in the model. */
function manifestOn(template: Template, ...overrides: Located<OverridePolicy>[]): Manifest {
  const model: ConfigModel = modelOf({
    templates: [template],
    policies: [everything],
    overrides,
    clusters: [member1],
  });
  const claim = claimTemplate(template, model, undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const target: TargetCluster = { name: 'member1', replicas: 1 };
  const binding: ResourceBinding = { ...claim.binding, spec: { ...claim.binding.spec, clusters: [target] } };
  const work = renderWorkManifest(
    { template, binding, clusters: [target], policy: everything },
    target,
    member1,
    model,
  );
  assert.equal(work.problems, []);
  return work.manifest as Manifest;
}

const job = (spec: Record<string, unknown> = {}) =>
  templateOf({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'test-job', namespace: 'default' },
    spec: {
      parallelism: 1,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  });

// TestCreateOrUpdateWork "create new work": the Work is named after the workload and holds it as its one manifest,
// labelled karmada.io/managed and annotated with the Work's name and namespace; RemoveJobTTLSeconds drops a Job's
// ttlSecondsAfterFinished.
test("a Job's Work manifest is labelled managed, names its Work, and leaves ttlSecondsAfterFinished out", () => {
  const m = manifestOn(job({ ttlSecondsAfterFinished: 100 }));
  assert.is(m.metadata.labels['karmada.io/managed'], 'true');
  assert.is(m.metadata.annotations['work.karmada.io/name'], workName('Job', 'test-job', 'default'));
  assert.is(m.metadata.annotations['work.karmada.io/namespace'], 'karmada-es-member1');
  assert.is(m.metadata.annotations['work.karmada.io/conflict-resolution'], 'abort');
  assert.not.ok('ttlSecondsAfterFinished' in m.spec);
});

// TestCreateOrUpdateWork "create new work", with the workload as ensureWork hands it over: after the cluster's
// overrides. RemoveIrrelevantFields(RemoveJobTTLSeconds) runs on that workload, so a field Karmada never propagates is
// not propagated when an OverridePolicy writes it either: a Job's ttlSecondsAfterFinished here, a Service's clusterIP
// below.
test("a Job's ttlSecondsAfterFinished added by an override is left out of the manifest too", () => {
  const ttl = overridePolicy('job-ttl', {
    resourceSelectors: [{ apiVersion: 'batch/v1', kind: 'Job' }],
    overrideRules: [
      { overriders: { plaintext: [{ path: '/spec/ttlSecondsAfterFinished', operator: 'add', value: 600 }] } },
    ],
  });
  const jobOnMember = manifestOn(job(), ttl);
  assert.not.ok('ttlSecondsAfterFinished' in jobOnMember.spec, 'the Job keeps no ttlSecondsAfterFinished');
});

test("a Service's clusterIP added by an override is left out of the manifest too", () => {
  const service = templateOf({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  });
  const ip = overridePolicy('service-ip', {
    resourceSelectors: [{ apiVersion: 'v1', kind: 'Service' }],
    overrideRules: [{ overriders: { plaintext: [{ path: '/spec/clusterIP', operator: 'add', value: '10.96.0.10' }] } }],
  });
  const serviceOnMember = manifestOn(service, ip);
  assert.not.ok('clusterIP' in serviceOnMember.spec, 'the Service keeps no clusterIP');
});

// TestCreateOrUpdateWork "update existing work": the Work keeps its name and its manifest is replaced whole, so what
// the template no longer has (a label, an annotation, a field) is gone from the member's manifest.
test('a template change rewrites its Work manifest in place, and what the template dropped is gone', async () => {
  const r = makeConfigRepo();
  try {
    const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
    const settings = (extra: string, data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default${extra}
data: {${data}}
`;
    const path = 'clusters/member1/default/configmap_settings.yaml';
    const sync = async () => syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'policies/settings.yaml': policy,
        'templates/settings.yaml': settings('\n  labels: {team: a}\n  annotations: {owner: team-a}', 'a: "1", b: "2"'),
      },
      'settings',
    );
    await sync();
    const before = parse(r.show('flotilla/rendered', path)) as Manifest & { data: Record<string, string> };
    assert.is(before.metadata.labels.team, 'a');
    assert.is(before.metadata.annotations.owner, 'team-a');

    r.commit({ 'templates/settings.yaml': settings('', 'a: "3"') }, 'settings without team, owner and b');
    await sync();
    const after = parse(r.show('flotilla/rendered', path)) as Manifest & { data: Record<string, string> };
    assert.is(after.metadata.annotations['work.karmada.io/name'], before.metadata.annotations['work.karmada.io/name']);
    assert.equal(after.data, { a: '3' });
    assert.is(after.metadata.labels.team, undefined);
    assert.is(after.metadata.annotations.owner, undefined);
    assert.is(after.metadata.labels['karmada.io/managed'], 'true');
  } finally {
    r.cleanup();
  }
});

test.run();
