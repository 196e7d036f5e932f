import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding, TargetCluster } from '../../src/api/binding.ts';
import type { LabelSelector, OverridePolicy, PropagationPolicy } from '../../src/api/policy.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import type { ConfigModel, Located, Template } from '../../src/api/model.ts';
import { renderWorkManifest } from '../../src/works/renderWorkManifest.ts';
import { workName } from '../../src/names/workName.ts';
import {
  deployment,
  memberCluster,
  modelOf,
  overridePolicy,
  propagationPolicy,
  templateOf,
} from '../helpers/inMemoryModel.ts';

const member1 = memberCluster('member1');
const member2 = memberCluster('member2');
const apps = propagationPolicy('apps', {
  resourceSelectors: [
    { apiVersion: 'apps/v1', kind: 'Deployment' },
    { apiVersion: 'batch/v1', kind: 'Job' },
  ],
  placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
});

/** The template as the binding controller gets it: claimed by `apps`, placed on `targets`. */
function source(
  template: Template,
  model: ConfigModel,
  targets: TargetCluster[],
  policy: Located<PropagationPolicy> = apps,
) {
  const claim = claimTemplate(template, model, undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const binding: ResourceBinding = { ...claim.binding, spec: { ...claim.binding.spec, clusters: targets } };
  return { template, binding, clusters: targets, policy };
}

function withOverrides(template: Template, ...overrides: Located<OverridePolicy>[]) {
  return modelOf({ templates: [template], policies: [apps], overrides, clusters: [member1, member2] });
}

test('a workload reaches each cluster with the replicas assigned there, the claim labels and the Work annotations', () => {
  const web = deployment('web', 5);
  const model = withOverrides(web);
  const targets = [
    { name: 'member1', replicas: 2 },
    { name: 'member2', replicas: 3 },
  ];
  const work = renderWorkManifest(source(web, model, targets), targets[1]!, member2, model);
  assert.equal(work.problems, []);
  const m = work.manifest as {
    metadata: { name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
    spec: { replicas: number };
  };
  assert.is(m.spec.replicas, 3);
  assert.equal(
    Object.keys(m.metadata).slice(0, 2),
    ['name', 'namespace'],
    'name and namespace first, as kubectl prints them',
  );
  assert.is(m.metadata.labels['karmada.io/managed'], 'true');
  assert.ok(m.metadata.labels['propagationpolicy.karmada.io/permanent-id']);
  assert.ok(m.metadata.labels['resourcebinding.karmada.io/permanent-id']);
  assert.match(m.metadata.labels['work.karmada.io/permanent-id'] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-5/);
  assert.equal(
    { ...m.metadata.annotations, 'work.karmada.io/name': undefined },
    {
      'resourcebinding.karmada.io/namespace': 'default',
      'resourcebinding.karmada.io/name': 'web-deployment',
      'propagationpolicy.karmada.io/name': 'apps',
      'propagationpolicy.karmada.io/namespace': 'default',
      'work.karmada.io/conflict-resolution': 'abort',
      'work.karmada.io/namespace': 'karmada-es-member2',
      'work.karmada.io/name': undefined,
      // Karmada's SetLabelsAndAnnotationsForWorkload: the keys the manifest sets, sorted.
      'resourcetemplate.karmada.io/managed-annotations':
        'propagationpolicy.karmada.io/name,propagationpolicy.karmada.io/namespace,resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace',
      'resourcetemplate.karmada.io/managed-labels': Object.keys(m.metadata.labels).sort().join(','),
    },
  );
  assert.is(m.metadata.annotations['work.karmada.io/name'], workName('Deployment', 'web', m.metadata.namespace ?? ''));
  assert.is((web.manifest.spec as { replicas: number }).replicas, 5, 'the template itself is not changed');
});

test('a Namespace synced without a binding gets only the managed label and the Work annotations, no conflict resolution', () => {
  const ns = templateOf(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    'templates/ns.yaml',
    true,
  );
  const model = modelOf({ templates: [ns], clusters: [member1] });
  const target = { name: 'member1', replicas: 0 };
  const m = renderWorkManifest({ template: ns, clusters: [target] }, target, member1, model).manifest as {
    metadata: { labels: Record<string, string>; annotations: Record<string, string> };
  };
  assert.equal(Object.keys(m.metadata.labels), ['karmada.io/managed', 'work.karmada.io/permanent-id']);
  // namespace_sync_controller's Work sets no work.karmada.io/conflict-resolution, so CreateOrUpdateWork adds none.
  assert.equal(Object.keys(m.metadata.annotations), [
    'work.karmada.io/namespace',
    'work.karmada.io/name',
    'resourcetemplate.karmada.io/managed-annotations',
    'resourcetemplate.karmada.io/managed-labels',
  ]);
  assert.is(
    m.metadata.annotations['resourcetemplate.karmada.io/managed-labels'],
    'karmada.io/managed,work.karmada.io/permanent-id',
  );
});

test("a synced Namespace's own conflict-resolution annotation reaches the member as written, unlike a bound object's", () => {
  // The binding controller's mergeConflictResolution replaces a value other than abort or overwrite with the binding's;
  // namespace sync merges nothing, so the Namespace's annotation is only copied.
  const ns = templateOf(
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', annotations: { 'work.karmada.io/conflict-resolution': 'Overwrite' } },
    },
    'templates/ns.yaml',
    true,
  );
  const model = modelOf({ templates: [ns], clusters: [member1] });
  const target = { name: 'member1', replicas: 0 };
  const m = renderWorkManifest({ template: ns, clusters: [target] }, target, member1, model).manifest as {
    metadata: { annotations: Record<string, string> };
  };
  assert.is(m.metadata.annotations['work.karmada.io/conflict-resolution'], 'Overwrite');
  assert.match(
    m.metadata.annotations['resourcetemplate.karmada.io/managed-annotations']!,
    'work.karmada.io/conflict-resolution',
  );
});

/** A Deployment carrying claim metadata from another control plane, as `kubectl get -o yaml` exports it. */
function exported(labels: Record<string, string>, annotations: Record<string, string>): Template {
  return templateOf({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', ...labels }, annotations },
    spec: { replicas: 1 },
  });
}

function claimKeysOnMember(template: Template, policy: Located<PropagationPolicy>): string[] {
  const model = modelOf({ templates: [template], policies: [policy], clusters: [member1] });
  const target = { name: 'member1', replicas: 1 };
  const m = renderWorkManifest(source(template, model, [target], policy), target, member1, model).manifest as {
    metadata: { labels: Record<string, string>; annotations: Record<string, string> };
  };
  const claim = (k: string) => k.includes('propagationpolicy.karmada.io/');
  return [
    ...Object.keys(m.metadata.labels)
      .filter(claim)
      .map((k) => `label ${k}=${m.metadata.labels[k]}`),
    ...Object.keys(m.metadata.annotations)
      .filter(claim)
      .map((k) => `annotation ${k}=${m.metadata.annotations[k]}`),
  ];
}

test("a template claimed by a PropagationPolicy reaches members without a ClusterPropagationPolicy's claim it carried", () => {
  const web = exported(
    { 'clusterpropagationpolicy.karmada.io/permanent-id': 'old-cpp-id' },
    { 'clusterpropagationpolicy.karmada.io/name': 'old-cpp' },
  );
  const keys = claimKeysOnMember(web, apps);
  assert.equal(
    keys.map((k) => k.split('=')[0]),
    [
      'label propagationpolicy.karmada.io/permanent-id',
      'annotation propagationpolicy.karmada.io/name',
      'annotation propagationpolicy.karmada.io/namespace',
    ],
  );
  assert.ok(keys.includes('annotation propagationpolicy.karmada.io/name=apps'));
  // Karmada's excludeClusterPolicy goes by the label: a lone name annotation stays on the template.
  const nameOnly = exported({}, { 'clusterpropagationpolicy.karmada.io/name': 'old-cpp' });
  assert.ok(claimKeysOnMember(nameOnly, apps).includes('annotation clusterpropagationpolicy.karmada.io/name=old-cpp'));
});

test("override policies see the template without the other claim its PropagationPolicy's claim took off", () => {
  // ClaimPolicyForObject's excludeClusterPolicy cleans the ClusterPropagationPolicy claim before the binding controller
  // reads the template: a selector on that label or its name annotation's presence finds nothing there.
  const web = exported(
    { 'clusterpropagationpolicy.karmada.io/permanent-id': 'old-cpp-id' },
    { 'clusterpropagationpolicy.karmada.io/name': 'old-cpp' },
  );
  const byOldClaim = (name: string, operator: 'Exists' | 'DoesNotExist') =>
    overridePolicy(name, {
      resourceSelectors: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          labelSelector: { matchExpressions: [{ key: 'clusterpropagationpolicy.karmada.io/permanent-id', operator }] },
        },
      ],
      overrideRules: [
        {
          overriders: {
            labelsOverrider: [{ operator: 'add', value: { [name]: 'yes' } }],
            plaintext: [{ path: '/metadata/annotations/old-name', operator: 'add', value: 'none' }],
          },
        },
      ],
    });
  const model = modelOf({
    templates: [web],
    policies: [apps],
    overrides: [byOldClaim('old-claim', 'Exists'), byOldClaim('no-old-claim', 'DoesNotExist')],
    clusters: [member1],
  });
  const target = { name: 'member1', replicas: 1 };
  const work = renderWorkManifest(source(web, model, [target]), target, member1, model);
  assert.equal(work.problems, []);
  const metadata = (
    work.manifest as { metadata: { labels: Record<string, string>; annotations: Record<string, string> } }
  ).metadata;
  assert.is(metadata.labels['old-claim'], undefined);
  assert.is(metadata.labels['no-old-claim'], 'yes');
  assert.is(metadata.labels['clusterpropagationpolicy.karmada.io/permanent-id'], undefined);
  assert.is(metadata.annotations['clusterpropagationpolicy.karmada.io/name'], undefined);
});

test('a template claimed by a ClusterPropagationPolicy reaches members without a complete PropagationPolicy claim it carried', () => {
  const cpp: Located<PropagationPolicy> = {
    ...apps,
    object: { ...apps.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'everywhere' } },
  };
  const ppClaim = {
    labels: { 'propagationpolicy.karmada.io/permanent-id': 'old-pp-id' },
    annotations: { 'propagationpolicy.karmada.io/namespace': 'default', 'propagationpolicy.karmada.io/name': 'gone' },
  };
  const complete = claimKeysOnMember(exported(ppClaim.labels, ppClaim.annotations), cpp);
  assert.equal(
    complete.map((k) => k.split('=')[0]),
    ['label clusterpropagationpolicy.karmada.io/permanent-id', 'annotation clusterpropagationpolicy.karmada.io/name'],
  );
  // The detector sees no claim in an incomplete one and leaves it where it is.
  const labelOnly = claimKeysOnMember(exported(ppClaim.labels, {}), cpp);
  assert.ok(labelOnly.includes('label propagationpolicy.karmada.io/permanent-id=old-pp-id'));
});

test("which claim a template carries is the template's, read once: an override completing another claim on one cluster supersedes nothing", () => {
  const cpp: Located<PropagationPolicy> = {
    ...apps,
    object: { ...apps.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'everywhere' } },
  };
  // Incomplete on the template (no name annotation), so Karmada's detector leaves it there.
  const web = exported(
    { 'propagationpolicy.karmada.io/permanent-id': 'old-pp-id' },
    { 'propagationpolicy.karmada.io/namespace': 'default' },
  );
  const completing = overridePolicy('complete-on-member1', {
    overrideRules: [
      {
        targetCluster: { clusterNames: ['member1'] },
        overriders: {
          annotationsOverrider: [{ operator: 'add', value: { 'propagationpolicy.karmada.io/name': 'gone' } }],
        },
      },
    ],
  });
  const model = modelOf({ templates: [web], policies: [cpp], overrides: [completing], clusters: [member1, member2] });
  const targets = [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ];
  for (const [i, cluster] of [member1, member2].entries()) {
    const m = renderWorkManifest(source(web, model, targets, cpp), targets[i]!, cluster, model).manifest as {
      metadata: { labels: Record<string, string> };
    };
    assert.is(m.metadata.labels['propagationpolicy.karmada.io/permanent-id'], 'old-pp-id', cluster.metadata.name);
  }
});

test("the template's own conflict-resolution annotation wins over the policy's", () => {
  const web = templateOf({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' },
    },
    spec: { replicas: 1 },
  });
  const model = withOverrides(web);
  const target = { name: 'member1', replicas: 1 };
  const m = renderWorkManifest(source(web, model, [target]), target, member1, model).manifest as {
    metadata: { annotations: Record<string, string> };
  };
  assert.is(m.metadata.annotations['work.karmada.io/conflict-resolution'], 'overwrite');
});

test("an override rule for one cluster changes that cluster's manifest only, and is recorded in the Work's applied-overrides", () => {
  const web = deployment('web', 2);
  const image = overridePolicy('member2-image', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    overrideRules: [
      {
        targetCluster: { clusterNames: ['member2'] },
        overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: '1.28' }] },
      },
    ],
  });
  const model = withOverrides(web, image);
  const targets = [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ];
  type Rendered = {
    metadata: { annotations: Record<string, string> };
    spec: { template: { spec: { containers: { image: string }[] } } };
  };
  const image1 = renderWorkManifest(source(web, model, targets), targets[0]!, member1, model).manifest as Rendered;
  const image2 = renderWorkManifest(source(web, model, targets), targets[1]!, member2, model).manifest as Rendered;
  assert.is(image1.spec.template.spec.containers[0]?.image, 'nginx:1.27');
  assert.is(image1.metadata.annotations['policy.karmada.io/applied-overrides'], undefined);
  assert.is(image2.spec.template.spec.containers[0]?.image, 'nginx:1.28');
  assert.is(
    image2.metadata.annotations['policy.karmada.io/applied-overrides'],
    '[{"policyName":"member2-image","overriders":{"imageOverrider":[{"component":"Tag","operator":"replace","value":"1.28"}]}}]',
  );
});

test("overrides see the claim Karmada's detector writes on the template: one without labels or annotations in Git has both", () => {
  // AddPPClaimMetadata puts the policy's permanent-id label and name/namespace annotations on the template before the
  // binding controller reads it, so a plaintext add under /metadata/labels or /metadata/annotations finds the map.
  const web = deployment('web', 1);
  const plaintext = overridePolicy('env', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    overrideRules: [
      {
        overriders: {
          plaintext: [
            { path: '/metadata/labels/env', operator: 'add', value: 'prod' },
            { path: '/metadata/annotations/team', operator: 'add', value: 'blue' },
          ],
        },
      },
    ],
  });
  const model = withOverrides(web, plaintext);
  const targets = [{ name: 'member1', replicas: 1 }];
  const work = renderWorkManifest(source(web, model, targets), targets[0]!, member1, model);
  assert.equal(work.problems, []);
  const metadata = (
    work.manifest as { metadata: { labels: Record<string, string>; annotations: Record<string, string> } }
  ).metadata;
  assert.equal(Object.keys(metadata.labels), [
    'env',
    'propagationpolicy.karmada.io/permanent-id',
    'resourcebinding.karmada.io/permanent-id',
    'karmada.io/managed',
    'work.karmada.io/permanent-id',
  ]);
  assert.is(metadata.labels.env, 'prod');
  assert.equal(Object.keys(metadata.annotations).slice(0, 5), [
    'team',
    'resourcebinding.karmada.io/namespace',
    'resourcebinding.karmada.io/name',
    'propagationpolicy.karmada.io/name',
    'propagationpolicy.karmada.io/namespace',
  ]);
  assert.is(metadata.annotations.team, 'blue');
});

test("an override policy selects a template by the permanent-id label its PropagationPolicy's claim gives it", () => {
  // Karmada's binding controller overrides the template as karmada-apiserver holds it, with the detector's claim on it.
  const web = deployment('web', 1);
  const model = withOverrides(web);
  const targets = [{ name: 'member1', replicas: 1 }];
  const id = source(web, model, targets).binding.metadata.labels?.['propagationpolicy.karmada.io/permanent-id'];
  assert.ok(id);
  const byClaim = (name: string, labelSelector: LabelSelector) =>
    overridePolicy(name, {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector }],
      overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { [name]: 'yes' } }] } }],
    });
  const claimed = withOverrides(
    web,
    byClaim('by-id', { matchLabels: { 'propagationpolicy.karmada.io/permanent-id': id } }),
    byClaim('by-presence', {
      matchExpressions: [{ key: 'propagationpolicy.karmada.io/permanent-id', operator: 'Exists' }],
    }),
    byClaim('unclaimed-only', {
      matchExpressions: [{ key: 'propagationpolicy.karmada.io/permanent-id', operator: 'DoesNotExist' }],
    }),
  );
  const work = renderWorkManifest(source(web, claimed, targets), targets[0]!, member1, claimed);
  assert.equal(work.problems, []);
  const labels = (work.manifest as { metadata: { labels: Record<string, string> } }).metadata.labels;
  assert.is(labels['by-id'], 'yes');
  assert.is(labels['by-presence'], 'yes');
  assert.is(labels['unclaimed-only'], undefined);
});

test('labels or annotations an override leaves other than a map of strings are read as none, as Karmada reads them', () => {
  // Unstructured.GetAnnotations (NestedStringMap) gives nil for a string there, or for a map holding a number: Karmada
  // merges its keys into a new map, and the manifest gets those alone.
  const web = deployment('web', 1, {});
  (web.manifest.metadata as Record<string, unknown>).annotations = { owner: 'team-a' };
  (web.manifest.metadata as Record<string, unknown>).labels = { app: 'web' };
  const odd = overridePolicy('odd', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    overrideRules: [
      {
        overriders: {
          plaintext: [
            { path: '/metadata/annotations', operator: 'add', value: 'foo: bar' },
            { path: '/metadata/labels/replicas', operator: 'add', value: 3 },
          ],
        },
      },
    ],
  });
  const model = withOverrides(web, odd);
  const targets = [{ name: 'member1', replicas: 1 }];
  const work = renderWorkManifest(source(web, model, targets), targets[0]!, member1, model);
  assert.equal(work.problems, []);
  const metadata = (
    work.manifest as { metadata: { labels: Record<string, string>; annotations: Record<string, string> } }
  ).metadata;
  assert.not.ok('app' in metadata.labels || 'replicas' in metadata.labels);
  assert.ok(Object.values(metadata.labels).every((v) => typeof v === 'string'));
  assert.equal(Object.keys(metadata.annotations).slice(0, 2), [
    'resourcebinding.karmada.io/namespace',
    'resourcebinding.karmada.io/name',
  ]);
  assert.ok(Object.values(metadata.annotations).every((v) => typeof v === 'string'));
  assert.not.ok('owner' in metadata.annotations);
});

test("applied ClusterOverridePolicies and OverridePolicies are recorded apart, by name, and are not among the manifest's managed annotations", () => {
  const web = deployment('web', 1);
  const cop: Located<OverridePolicy> = {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterOverridePolicy',
      metadata: { name: 'fleet-registry' },
      spec: {
        overrideRules: [
          { overriders: { imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.io' }] } },
        ],
      },
    },
    source: { file: 'policies/fleet-registry.yaml', line: 1, column: 1 },
  };
  const model = withOverrides(
    web,
    cop,
    overridePolicy('zz-paused', {
      overrideRules: [{ overriders: { plaintext: [{ path: '/spec/paused', operator: 'add', value: true }] } }],
    }),
    overridePolicy('aa-nothing', {
      overrideRules: [{ overriders: {} }, { targetCluster: { clusterNames: ['member2'] }, overriders: {} }],
    }),
  );
  const target = { name: 'member1', replicas: 1 };
  const annotations = (
    renderWorkManifest(source(web, model, [target]), target, member1, model).manifest as {
      metadata: { annotations: Record<string, string> };
    }
  ).metadata.annotations;
  assert.is(
    annotations['policy.karmada.io/applied-cluster-overrides'],
    '[{"policyName":"fleet-registry","overriders":{"imageOverrider":[{"component":"Registry","operator":"replace","value":"mirror.io"}]}}]',
  );
  assert.is(
    annotations['policy.karmada.io/applied-overrides'],
    '[{"policyName":"aa-nothing","overriders":{}},{"policyName":"zz-paused","overriders":{"plaintext":[{"path":"/spec/paused","operator":"add","value":true}]}}]',
  );
  const managed = annotations['resourcetemplate.karmada.io/managed-annotations']!.split(',');
  assert.ok(managed.includes('work.karmada.io/name'));
  assert.not.ok(managed.some((k) => k.startsWith('policy.karmada.io/')));
});

test('an OverridePolicy selecting a label that a ClusterOverridePolicy gives the object applies where that label is given', () => {
  const web = deployment('web', 2);
  const gold: Located<OverridePolicy> = {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterOverridePolicy',
      metadata: { name: 'gold-tier' },
      spec: {
        overrideRules: [
          {
            targetCluster: { clusterNames: ['member2'] },
            overriders: { labelsOverrider: [{ operator: 'add', value: { tier: 'gold' } }] },
          },
        ],
      },
    },
    source: { file: 'policies/gold-tier.yaml', line: 1, column: 1 },
  };
  const model = withOverrides(
    web,
    gold,
    overridePolicy('gold-image', {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { tier: 'gold' } } },
      ],
      overrideRules: [{ overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: '2' }] } }],
    }),
  );
  const targets = [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ];
  const imageOn = (i: number, c: typeof member1) =>
    (
      renderWorkManifest(source(web, model, targets), targets[i]!, c, model).manifest as {
        spec: { template: { spec: { containers: { image: string }[] } } };
      }
    ).spec.template.spec.containers[0]?.image;
  assert.is(imageOn(0, member1), 'nginx:1.27');
  assert.is(imageOn(1, member2), 'nginx:2');
});

test('clusters whose manifest no override changed share its pod template; each has its Work id; a labels override gets its own labels', () => {
  const web = deployment('web', 3);
  const team = overridePolicy('member2-team', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    overrideRules: [
      {
        targetCluster: { clusterNames: ['member2'] },
        overriders: { labelsOverrider: [{ operator: 'add', value: { team: 'b' } }] },
      },
    ],
  });
  const member3 = memberCluster('member3');
  const model = modelOf({
    templates: [web],
    policies: [apps],
    overrides: [team],
    clusters: [member1, member2, member3],
  });
  const targets = [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
    { name: 'member3', replicas: 1 },
  ];
  const p = source(web, model, targets);
  type Rendered = { metadata: { labels: Record<string, string> }; spec: { template: unknown } };
  const [m1, m2, m3] = [member1, member2, member3].map(
    (cluster, i) => renderWorkManifest(p, targets[i]!, cluster, model).manifest as Rendered,
  );
  assert.equal(
    { ...m3!.metadata.labels, 'work.karmada.io/permanent-id': '' },
    { ...m1!.metadata.labels, 'work.karmada.io/permanent-id': '' },
  );
  assert.is.not(
    m3!.metadata.labels['work.karmada.io/permanent-id'],
    m1!.metadata.labels['work.karmada.io/permanent-id'],
  );
  assert.is(m3!.spec.template, m1!.spec.template);
  assert.is.not(m2!.metadata.labels, m1!.metadata.labels);
  assert.is(m2!.metadata.labels.team, 'b');
  assert.is(m1!.metadata.labels.team, undefined);
  assert.is(m1!.metadata.labels['karmada.io/managed'], 'true');
  assert.is(m2!.metadata.labels['karmada.io/managed'], 'true');
});

test('an override rule that would rename the object is refused at the policy; the manifest renders under its own name with the other rules', () => {
  const web = deployment('web', 1);
  const rename = overridePolicy(
    'rename',
    {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      overrideRules: [
        { overriders: { plaintext: [{ path: '/metadata/name', operator: 'replace', value: 'other' }] } },
        { overriders: { labelsOverrider: [{ operator: 'add', value: { team: 'a' } }] } },
      ],
    },
    'policies/rename.yaml',
  );
  const model = withOverrides(web, rename);
  const target = { name: 'member1', replicas: 1 };
  const work = renderWorkManifest(source(web, model, [target]), target, member1, model);
  const m = work.manifest as { metadata: { name: string; labels: Record<string, string> } };
  assert.is(m.metadata.name, 'web');
  assert.is(m.metadata.labels.team, 'a');
  assert.equal(
    work.problems.map((p) => [p.code, p.file]),
    [['OVERRIDE_FAILED', 'policies/rename.yaml']],
  );
  assert.match(
    work.problems[0]!.message,
    /OverridePolicy default\/rename spec\.overrideRules\[0\] would change the identity of Deployment default\/web \(metadata\.name "web" → "other"\)/,
  );
});

test('an override that fails gives no manifest for that cluster, and OVERRIDE_FAILED at the template names the cluster', () => {
  const web = deployment('web', 1);
  const broken = overridePolicy('broken', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    overrideRules: [{ overriders: { plaintext: [{ path: '/spec/missing/deeper', operator: 'replace', value: 1 }] } }],
  });
  const model = withOverrides(web, broken);
  const target = { name: 'member1', replicas: 1 };
  const work = renderWorkManifest(source(web, model, [target]), target, member1, model);
  assert.is(work.manifest, undefined);
  assert.equal(
    work.problems.map((p) => [p.code, p.file]),
    [['OVERRIDE_FAILED', 'templates/web.yaml']],
  );
  assert.match(work.problems[0]!.message, /for cluster member1/);
  assert.match(work.problems[0]!.fix, /until then member1 keeps its previous Deployment/);
});

test("a Divided Job's completions are split over its clusters like its replicas", () => {
  const job = templateOf({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'batch', namespace: 'default' },
    spec: { parallelism: 4, completions: 8, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  const model = withOverrides(job);
  const targets = [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 3 },
  ];
  const spec = (t: TargetCluster, c = t.name === 'member1' ? member1 : member2) =>
    (
      renderWorkManifest(source(job, model, targets), t, c, model).manifest as {
        spec: { parallelism: number; completions: number };
      }
    ).spec;
  assert.equal([spec(targets[0]!).parallelism, spec(targets[0]!).completions], [1, 2]);
  assert.equal([spec(targets[1]!).parallelism, spec(targets[1]!).completions], [3, 6]);
});

// Karmada's pkg/controllers/binding/common_test.go, Test_needReviseJobCompletions: "replicas is zero".
test('a Job at parallelism 0 keeps its completions: there are no replicas to divide them by', () => {
  const job = templateOf({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'batch', namespace: 'default' },
    spec: { parallelism: 0, completions: 10, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  const model = withOverrides(job);
  const targets = [
    { name: 'member1', replicas: 0 },
    { name: 'member2', replicas: 0 },
  ];
  const completions = (t: TargetCluster, c: typeof member1) =>
    (renderWorkManifest(source(job, model, targets), t, c, model).manifest as { spec: { completions: number } }).spec
      .completions;
  assert.equal([completions(targets[0]!, member1), completions(targets[1]!, member2)], [10, 10]);
});

// Test_mergeConflictResolution: Karmada reads the annotation from the workload after the cluster's overrides.
test('the conflict-resolution annotation an override adds or removes is the one the Work gets', () => {
  const annotated = (name: string, value?: string) =>
    templateOf({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace: 'default',
        ...(value ? { annotations: { 'work.karmada.io/conflict-resolution': value } } : {}),
      },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
  const add = overridePolicy('add', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'add' }],
    overrideRules: [
      {
        targetCluster: { clusterNames: ['member1'] },
        overriders: {
          annotationsOverrider: [{ operator: 'add', value: { 'work.karmada.io/conflict-resolution': 'overwrite' } }],
        },
      },
    ],
  });
  const remove = overridePolicy('rm', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'rm' }],
    overrideRules: [
      {
        targetCluster: { clusterNames: ['member1'] },
        overriders: {
          annotationsOverrider: [{ operator: 'remove', value: { 'work.karmada.io/conflict-resolution': '' } }],
        },
      },
    ],
  });
  const targets = [{ name: 'member1', replicas: 1 }];
  const resolution = (template: Template, cluster: typeof member1) => {
    const model = withOverrides(template, add, remove);
    const m = renderWorkManifest(source(template, model, targets), targets[0]!, cluster, model).manifest as {
      metadata: { annotations: Record<string, string> };
    };
    return m.metadata.annotations['work.karmada.io/conflict-resolution'];
  };
  assert.is(resolution(annotated('add'), member1), 'overwrite');
  assert.is(resolution(annotated('add'), member2), 'abort');
  assert.is(resolution(annotated('rm', 'overwrite'), member1), 'abort');
  assert.is(resolution(annotated('rm', 'overwrite'), member2), 'overwrite');
});

test.run();
