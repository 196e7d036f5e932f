// The interpreters Karmada bundles for Flux's kinds: health, retention, status reflection and aggregation, and
// dependencies of HelmRelease, Kustomization, GitRepository, Bucket, HelmChart, HelmRepository and OCIRepository.
// The cases are those of Karmada's testdata next to each kind's customizations.yaml
// (pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/<group>/<version>/<Kind>/testdata), with the
// objects reduced to the fields the operations read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LuaHookError } from '../../src/interpreters/lua/luaRuntime.ts';
import { FLUX } from '../../src/interpreters/thirdParty/flux.ts';
import type {
  AggregatedStatusItem,
  DependentObjectReference,
  Obj,
  ThirdPartyInterpreter,
} from '../../src/interpreters/thirdParty/thirdPartyInterpreter.ts';

const HELM_RELEASE = 'helm.toolkit.fluxcd.io/v2beta1/HelmRelease';
const KUSTOMIZATION = 'kustomize.toolkit.fluxcd.io/v1/Kustomization';
const GIT_REPOSITORY = 'source.toolkit.fluxcd.io/v1/GitRepository';
const BUCKET = 'source.toolkit.fluxcd.io/v1beta2/Bucket';
const HELM_CHART = 'source.toolkit.fluxcd.io/v1beta2/HelmChart';
const HELM_REPOSITORY = 'source.toolkit.fluxcd.io/v1beta2/HelmRepository';
const OCI_REPOSITORY = 'source.toolkit.fluxcd.io/v1beta2/OCIRepository';

function interpreter(key: string): Required<ThirdPartyInterpreter> {
  const found = FLUX[key];
  if (!found) throw new Error(`no interpreter for ${key}`);
  return found as Required<ThirdPartyInterpreter>;
}

/** The apiVersion and kind of a table key. */
function typeOf(key: string): { apiVersion: string; kind: string } {
  const at = key.lastIndexOf('/');
  return { apiVersion: key.slice(0, at), kind: key.slice(at + 1) };
}

const condition = (type: string, status: string, reason: string, message?: string, extra: Obj = {}): Obj => ({
  type,
  status,
  reason,
  ...(message === undefined ? {} : { message }),
  ...extra,
});
const ready = (reason: string, status = 'True') => ({ status: { conditions: [condition('Ready', status, reason)] } });
const at = (time: string) => ({ lastTransitionTime: time, observedGeneration: 1 });
const secret = (name: string, namespace?: string): DependentObjectReference => ({
  apiVersion: 'v1',
  kind: 'Secret',
  ...(namespace ? { namespace } : {}),
  name,
});
const serviceAccount = (name: string, namespace: string): DependentObjectReference => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  namespace,
  name,
});
const configMap = (name: string, namespace: string): DependentObjectReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace,
  name,
});
const generations = (generation: number, observedGeneration: number, resourceTemplateGeneration: number) => ({
  generation,
  observedGeneration,
  resourceTemplateGeneration,
});
const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

// ---------------------------------------------------------------------------------------------------------------
// Health

const healthCases: [key: string, name: string, observed: Obj, healthy: boolean][] = [
  // HelmRelease/testdata/interprethealth-test.yaml
  [
    HELM_RELEASE,
    'a HelmRelease whose Ready condition is True after a reconciliation is healthy',
    ready('ReconciliationSucceeded'),
    true,
  ],
  [
    HELM_RELEASE,
    'a HelmRelease Ready for another reason (InstallSucceeded) is not healthy',
    ready('InstallSucceeded'),
    false,
  ],
  [
    HELM_RELEASE,
    'a HelmRelease whose Ready condition is False is not healthy',
    ready('ReconciliationFailed', 'False'),
    false,
  ],
  [
    HELM_RELEASE,
    'a HelmRelease with no Ready condition is not healthy',
    { status: { conditions: [condition('Released', 'True', 'InstallSucceeded')] } },
    false,
  ],
  [HELM_RELEASE, 'a HelmRelease with an empty condition list is not healthy', { status: { conditions: [] } }, false],
  [HELM_RELEASE, 'a HelmRelease with no status is not healthy', { metadata: { name: 'sample' } }, false],
  [
    HELM_RELEASE,
    'a HelmRelease is healthy when its Ready condition comes after others',
    {
      status: {
        conditions: [
          condition('Released', 'True', 'InstallSucceeded'),
          condition('Ready', 'True', 'ReconciliationSucceeded'),
          condition('Test', 'True', 'TestSucceeded'),
        ],
      },
    },
    true,
  ],
  // Kustomization/testdata/interprethealth-test.yaml
  [
    KUSTOMIZATION,
    'a Kustomization whose Ready condition is True after a reconciliation is healthy',
    ready('ReconciliationSucceeded'),
    true,
  ],
  [
    KUSTOMIZATION,
    'a Kustomization whose Ready condition is False is not healthy',
    ready('ReconciliationFailed', 'False'),
    false,
  ],
  [KUSTOMIZATION, 'a Kustomization still progressing is not healthy', ready('Progressing'), false],
  [KUSTOMIZATION, 'a Kustomization with no status is not healthy', {}, false],
  [KUSTOMIZATION, 'a Kustomization with no conditions is not healthy', { status: {} }, false],
  [
    KUSTOMIZATION,
    'a Kustomization with no Ready condition is not healthy',
    { status: { conditions: [condition('Reconciling', 'True', 'SomeReason')] } },
    false,
  ],
  [
    KUSTOMIZATION,
    'a Kustomization is healthy when its Ready condition is among others',
    {
      status: {
        conditions: [
          condition('Reconciling', 'True', 'Progressing'),
          condition('Ready', 'True', 'ReconciliationSucceeded'),
          condition('Artifact', 'True', 'ArtifactAvailable'),
        ],
      },
    },
    true,
  ],
  // GitRepository/testdata/interprethealth-test.yaml
  [
    GIT_REPOSITORY,
    'a GitRepository whose Ready condition is True with reason Succeeded is healthy',
    ready('Succeeded'),
    true,
  ],
  [GIT_REPOSITORY, 'a GitRepository Ready for another reason is not healthy', ready('Progressing'), false],
  [GIT_REPOSITORY, 'a GitRepository whose Ready condition is False is not healthy', ready('Succeeded', 'False'), false],
  [
    GIT_REPOSITORY,
    'a GitRepository with no Ready condition is not healthy',
    { status: { conditions: [condition('ArtifactInStorage', 'True', 'Succeeded')] } },
    false,
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository with an empty condition list is not healthy',
    { status: { conditions: [] } },
    false,
  ],
  [GIT_REPOSITORY, 'a GitRepository with no status is not healthy', {}, false],
  [GIT_REPOSITORY, 'a GitRepository with no conditions is not healthy', { status: {} }, false],
  // Bucket/testdata/interprethealth-test.yaml
  [BUCKET, 'a Bucket whose Ready condition is True with reason Succeeded is healthy', ready('Succeeded'), true],
  [BUCKET, 'a Bucket Ready for another reason is not healthy', ready('Progressing'), false],
  [BUCKET, 'a Bucket whose Ready condition is False is not healthy', ready('Failed', 'False'), false],
  [
    BUCKET,
    'a Bucket with no Ready condition is not healthy',
    { status: { conditions: [{ type: 'Reconciling', status: 'True' }] } },
    false,
  ],
  [BUCKET, 'a Bucket with an empty condition list is not healthy', { status: { conditions: [] } }, false],
  [BUCKET, 'a Bucket with no status is not healthy', {}, false],
  [BUCKET, 'a Bucket with no conditions is not healthy', { status: {} }, false],
  // HelmChart/testdata/interprethealth-test.yaml
  [HELM_CHART, 'a HelmChart whose Ready condition is True with reason Succeeded is healthy', ready('Succeeded'), true],
  [
    HELM_CHART,
    'a HelmChart whose Ready condition is True after a chart pull is healthy',
    ready('ChartPullSucceeded'),
    true,
  ],
  [HELM_CHART, 'a HelmChart whose Ready condition is False is not healthy', ready('Succeeded', 'False'), false],
  [
    HELM_CHART,
    'a HelmChart with no Ready condition is not healthy',
    { status: { conditions: [condition('ArtifactInStorage', 'True', 'ChartPullSucceeded')] } },
    false,
  ],
  [HELM_CHART, 'a HelmChart with an empty condition list is not healthy', { status: { conditions: [] } }, false],
  [HELM_CHART, 'a HelmChart with no status is not healthy', {}, false],
  [HELM_CHART, 'a HelmChart with no conditions is not healthy', { status: {} }, false],
  // HelmRepository/testdata/interprethealth-test.yaml
  [
    HELM_REPOSITORY,
    'a HelmRepository whose Ready condition is True with reason Succeeded is healthy',
    ready('Succeeded'),
    true,
  ],
  [HELM_REPOSITORY, 'a HelmRepository whose Ready condition is False is not healthy', ready('Failed', 'False'), false],
  [
    HELM_REPOSITORY,
    'a HelmRepository with no Ready condition is not healthy',
    { status: { conditions: [condition('ArtifactInStorage', 'True', 'Succeeded')] } },
    false,
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository with an empty condition list is not healthy',
    { status: { conditions: [] } },
    false,
  ],
  [HELM_REPOSITORY, 'a HelmRepository with no status is not healthy', {}, false],
  [
    HELM_REPOSITORY,
    'a HelmRepository whose conditions are null is not healthy',
    { status: { conditions: null } },
    false,
  ],
  // OCIRepository/testdata/interprethealth-test.yaml
  [
    OCI_REPOSITORY,
    'an OCIRepository whose Ready condition is True with reason Succeeded is healthy',
    ready('Succeeded'),
    true,
  ],
  [OCI_REPOSITORY, 'an OCIRepository whose Ready condition is False is not healthy', ready('Failed', 'False'), false],
  [
    OCI_REPOSITORY,
    'an OCIRepository with no Ready condition is not healthy',
    { status: { conditions: [condition('ArtifactInStorage', 'True', 'Succeeded')] } },
    false,
  ],
  [OCI_REPOSITORY, 'an OCIRepository Ready for another reason is not healthy', ready('Progressing'), false],
  [OCI_REPOSITORY, 'an OCIRepository with no status is not healthy', {}, false],
];

for (const [key, name, observed, healthy] of healthCases) {
  test(name, () => {
    assert.is(interpreter(key).interpretHealth(observed), healthy);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Retention: every kind keeps the member's spec.suspend

const retainCases: [key: string, name: string, desiredSpec: Obj, observedSpec: Obj, retainedSpec: Obj][] = [
  // HelmRelease/testdata/retention-test.yaml
  [
    HELM_RELEASE,
    'a HelmRelease keeps the suspend=true a member set',
    { interval: '5m', chart: { spec: { chart: './charts/podinfo' } } },
    { suspend: true },
    { interval: '5m', chart: { spec: { chart: './charts/podinfo' } }, suspend: true },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease keeps the suspend=false a member set',
    { interval: '5m' },
    { suspend: false },
    { interval: '5m', suspend: false },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease is applied as it is when the member has no suspend',
    { interval: '5m' },
    { interval: '5m' },
    { interval: '5m' },
  ],
  // Kustomization/testdata/retention-test.yaml
  [
    KUSTOMIZATION,
    "a Kustomization keeps the template's suspend when the member has none",
    { path: './kustomize', prune: true, suspend: false },
    { path: './kustomize', prune: true },
    { path: './kustomize', prune: true, suspend: false },
  ],
  [
    KUSTOMIZATION,
    'a Kustomization keeps the suspend=true a member set',
    { path: './kustomize', suspend: false },
    { path: './kustomize', suspend: true },
    { path: './kustomize', suspend: true },
  ],
  [
    KUSTOMIZATION,
    'a Kustomization keeps the suspend=false a member set',
    { path: './kustomize', suspend: true },
    { path: './kustomize', suspend: false },
    { path: './kustomize', suspend: false },
  ],
  // GitRepository/testdata/retention-test.yaml
  [
    GIT_REPOSITORY,
    'a GitRepository keeps the suspend=true a member set',
    { interval: '30s', url: 'https://github.com/example/repo' },
    { suspend: true },
    { interval: '30s', url: 'https://github.com/example/repo', suspend: true },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository keeps the suspend=false a member set',
    { interval: '30s' },
    { suspend: false },
    { interval: '30s', suspend: false },
  ],
  [
    GIT_REPOSITORY,
    "a GitRepository keeps the template's suspend when the member has none",
    { interval: '30s', suspend: true },
    { interval: '30s' },
    { interval: '30s', suspend: true },
  ],
  // Bucket/testdata/retention-test.yaml
  [BUCKET, 'a Bucket keeps the suspend=true a member set', {}, { suspend: true }, { suspend: true }],
  [BUCKET, 'a Bucket keeps the suspend=false a member set', {}, { suspend: false }, { suspend: false }],
  [BUCKET, 'a Bucket gets no suspend when neither has one, its empty spec kept', {}, {}, {}],
  // HelmChart/testdata/retention-test.yaml
  [
    HELM_CHART,
    'a HelmChart keeps the suspend=true a member set',
    { suspend: false },
    { suspend: true },
    { suspend: true },
  ],
  [
    HELM_CHART,
    'a HelmChart keeps the suspend=false a member set',
    { suspend: true },
    { suspend: false },
    { suspend: false },
  ],
  [
    HELM_CHART,
    "a HelmChart keeps the template's suspend when the member has none",
    { suspend: true },
    {},
    { suspend: true },
  ],
  // HelmRepository/testdata/retention-test.yaml
  [
    HELM_REPOSITORY,
    'a HelmRepository keeps the suspend=true a member set',
    { suspend: false },
    { suspend: true },
    { suspend: true },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository keeps the suspend=false a member set',
    { suspend: true },
    { suspend: false },
    { suspend: false },
  ],
  [
    HELM_REPOSITORY,
    "a HelmRepository keeps the template's suspend when the member has none",
    { suspend: true },
    {},
    { suspend: true },
  ],
  // OCIRepository/testdata/retention-test.yaml
  [
    OCI_REPOSITORY,
    'an OCIRepository keeps the suspend a member set over its own',
    { suspend: false },
    { suspend: true },
    { suspend: true },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository gets the suspend a member set when it has none',
    {},
    { suspend: true },
    { suspend: true },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository retains suspend alone, its other fields untouched',
    { interval: '10m', suspend: false },
    { suspend: true },
    { interval: '10m', suspend: true },
  ],
];

for (const [key, name, desiredSpec, observedSpec, retainedSpec] of retainCases) {
  test(name, () => {
    const metadata = { name: 'sample', namespace: 'flux' };
    const desired = { ...typeOf(key), metadata, spec: desiredSpec };
    const observed = { ...typeOf(key), metadata, spec: observedSpec };
    const before = structuredClone(desired);
    assert.equal(interpreter(key).retain(desired, observed), { ...typeOf(key), metadata, spec: retainedSpec });
    assert.equal(desired, before);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Status reflection

const READY_GIT = condition(
  'Ready',
  'True',
  'Succeeded',
  "stored artifact for revision 'master@sha1:0647aea'",
  at('2023-05-01T10:17:09Z'),
);
const STORED_GIT = condition(
  'ArtifactInStorage',
  'True',
  'Succeeded',
  "stored artifact for revision 'master@sha1:0647aea'",
  at('2023-05-01T10:17:09Z'),
);
const GIT_ARTIFACT = {
  digest: 'sha256:a375b2',
  lastUpdateTime: '2023-05-01T10:17:09Z',
  path: 'gitrepository/sample/0647aea.tar.gz',
  revision: 'master@sha1:0647aea',
  size: 83516,
  url: 'http://source-controller./gitrepository/sample/0647aea.tar.gz',
};
const BUCKET_CONDITIONS = [
  condition('Reconciling', 'True', 'ProgressingWithRetry', 'building artifact', at('2023-04-29T14:03:19Z')),
  condition(
    'Ready',
    'False',
    'AuthenticationFailed',
    "invalid 'fake-secret' secret data: required fields 'accesskey' and 'secretkey'",
    at('2023-04-29T14:03:19Z'),
  ),
  condition(
    'FetchFailed',
    'True',
    'AuthenticationFailed',
    "invalid 'fake-secret' secret data: required fields 'accesskey' and 'secretkey'",
    at('2023-04-29T14:01:44Z'),
  ),
];
const CHART_CONDITIONS = [
  condition(
    'Ready',
    'True',
    'ChartPullSucceeded',
    "pulled 'podinfo' chart with version '5.2.1'",
    at('2023-04-30T07:22:36Z'),
  ),
  condition(
    'ArtifactInStorage',
    'True',
    'ChartPullSucceeded',
    "pulled 'podinfo' chart with version '5.2.1'",
    at('2023-04-30T07:22:36Z'),
  ),
];
const CHART_ARTIFACT = {
  digest: 'sha256:6c3cc3',
  lastUpdateTime: '2023-04-30T07:22:36Z',
  path: 'helmchart/sample/podinfo-5.2.1.tgz',
  revision: '5.2.1',
  size: 13418,
  url: 'http://source-controller./helmchart/sample/podinfo-5.2.1.tgz',
};
const REPOSITORY_CONDITIONS = [
  condition('Ready', 'True', 'Succeeded', "stored artifact: revision 'sha256:61f94c'", at('2023-04-29T09:30:31Z')),
  condition(
    'ArtifactInStorage',
    'True',
    'Succeeded',
    "stored artifact: revision 'sha256:61f94c'",
    at('2023-04-29T09:30:31Z'),
  ),
];
const REPOSITORY_ARTIFACT = {
  digest: 'sha256:61f94c',
  lastUpdateTime: '2023-04-29T09:30:31Z',
  path: 'helmrepository/sample/index-61f94c.yaml',
  revision: 'sha256:61f94c',
  size: 42012,
  url: 'http://source-controller./helmrepository/sample/index-61f94c.yaml',
};
const OCI_CONDITIONS = [
  condition(
    'Ready',
    'True',
    'Succeeded',
    "stored artifact for digest '6.2.3@sha256:a081a2'",
    at('2023-04-29T06:07:53Z'),
  ),
  condition(
    'ArtifactInStorage',
    'True',
    'Succeeded',
    "stored artifact for digest '6.2.3@sha256:a081a2'",
    at('2023-04-29T06:07:53Z'),
  ),
];
const OCI_ARTIFACT = {
  digest: 'sha256:b6ccea',
  lastUpdateTime: '2023-04-29T06:07:53Z',
  metadata: {
    'org.opencontainers.image.created': '2022-11-09T11:24:23Z',
    'org.opencontainers.image.source': 'https://github.com/stefanprodan/podinfo',
  },
  path: 'ocirepository/sample/sha256:a081a2.tar.gz',
  revision: '6.2.3@sha256:a081a2',
  size: 1103,
  url: 'http://source-controller./ocirepository/sample/sha256:a081a2.tar.gz',
};
const RELEASE_CONDITIONS = [
  condition('Ready', 'True', 'ReconciliationSucceeded', 'Release reconciliation succeeded', at('2023-05-01T07:11:16Z')),
  condition('Released', 'True', 'InstallSucceeded', 'Helm install succeeded', at('2023-05-01T07:11:16Z')),
];
const APPLIED = condition(
  'Ready',
  'True',
  'ReconciliationSucceeded',
  'Applied revision: master@sha1:0647aea',
  at('2023-04-30T12:51:06Z'),
);
const KUSTOMIZATION_STATUS = {
  conditions: [APPLIED],
  lastAppliedRevision: 'master@sha1:0647aea',
  lastAttemptedRevision: 'master@sha1:0647aea',
  observedGeneration: 1,
};
const annotated = (generation: unknown) => ({ annotations: { [TEMPLATE_GENERATION]: generation } });

const reflectCases: [key: string, name: string, observed: Obj, status: Obj][] = [
  // HelmRelease/testdata/interpretstatus-test.yaml
  [
    HELM_RELEASE,
    "a HelmRelease reports its release status with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { interval: '5m' },
      status: {
        conditions: RELEASE_CONDITIONS,
        helmChart: 'test-helmrelease/test-helmrelease-sample',
        lastAppliedRevision: '6.3.5',
        lastAttemptedRevision: '6.3.5',
        lastAttemptedValuesChecksum: 'da39a3ee',
        lastReleaseRevision: 1,
        observedGeneration: 1,
        failures: 0,
        upgradeFailures: 0,
        installFailures: 0,
        other: 'not reported',
      },
    },
    {
      conditions: RELEASE_CONDITIONS,
      helmChart: 'test-helmrelease/test-helmrelease-sample',
      lastAppliedRevision: '6.3.5',
      lastAttemptedRevision: '6.3.5',
      lastAttemptedValuesChecksum: 'da39a3ee',
      lastReleaseRevision: 1,
      observedGeneration: 1,
      failures: 0,
      upgradeFailures: 0,
      installFailures: 0,
      generation: 1,
      resourceTemplateGeneration: 1,
    },
  ],
  [HELM_RELEASE, 'a HelmRelease with no status reports an empty one', { metadata: { generation: 1 } }, {}],
  [
    HELM_RELEASE,
    'a HelmRelease reports the status fields it has',
    {
      metadata: { generation: 1 },
      status: {
        conditions: [condition('Ready', 'True', 'ReconciliationSucceeded')],
        observedGeneration: 1,
        lastAttemptedRevision: '6.3.5',
      },
    },
    {
      conditions: [condition('Ready', 'True', 'ReconciliationSucceeded')],
      observedGeneration: 1,
      lastAttemptedRevision: '6.3.5',
      generation: 1,
    },
  ],
  // Kustomization/testdata/interpretstatus-test.yaml
  [
    KUSTOMIZATION,
    "a Kustomization reports its revisions and conditions, not its inventory, with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: { ...KUSTOMIZATION_STATUS, inventory: { entries: [{ id: 'test_podinfo_apps_Deployment', v: 'v1' }] } },
    },
    { ...KUSTOMIZATION_STATUS, generation: 1, resourceTemplateGeneration: 1 },
  ],
  [KUSTOMIZATION, 'a Kustomization with no status reports an empty one', { metadata: { name: 'sample' } }, {}],
  [
    KUSTOMIZATION,
    'a Kustomization with no metadata reports its status fields alone',
    { status: KUSTOMIZATION_STATUS },
    KUSTOMIZATION_STATUS,
  ],
  [
    KUSTOMIZATION,
    'a Kustomization without annotations reports its generation alone',
    { metadata: { generation: 1 }, status: KUSTOMIZATION_STATUS },
    { ...KUSTOMIZATION_STATUS, generation: 1 },
  ],
  [
    KUSTOMIZATION,
    'a Kustomization without the template-generation annotation reports no template generation',
    { metadata: { generation: 1, annotations: { 'some.other.annotation': 'value' } }, status: KUSTOMIZATION_STATUS },
    { ...KUSTOMIZATION_STATUS, generation: 1 },
  ],
  [
    KUSTOMIZATION,
    'a Kustomization reports the status fields it has',
    {
      metadata: { ...annotated('2'), generation: 2 },
      status: {
        conditions: [condition('Reconciling', 'True', 'Progressing', 'Reconciling')],
        lastAttemptedRevision: 'master@sha1:0647aeb',
        observedGeneration: 2,
      },
    },
    {
      conditions: [condition('Reconciling', 'True', 'Progressing', 'Reconciling')],
      lastAttemptedRevision: 'master@sha1:0647aeb',
      observedGeneration: 2,
      generation: 2,
      resourceTemplateGeneration: 2,
    },
  ],
  // GitRepository/testdata/interpretstatus-test.yaml
  [
    GIT_REPOSITORY,
    "a GitRepository reports its artifact and conditions with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: { artifact: GIT_ARTIFACT, conditions: [READY_GIT, STORED_GIT], observedGeneration: 1 },
    },
    {
      artifact: GIT_ARTIFACT,
      conditions: [READY_GIT, STORED_GIT],
      observedGeneration: 1,
      generation: 1,
      resourceTemplateGeneration: 1,
    },
  ],
  [GIT_REPOSITORY, 'a GitRepository with no status reports an empty one', { metadata: { name: 'sample' } }, {}],
  [
    GIT_REPOSITORY,
    'a GitRepository without the template-generation annotation reports no template generation',
    { metadata: { generation: 2 }, status: { observedGeneration: 2 } },
    { observedGeneration: 2, generation: 2 },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository reports its observedIgnore',
    { metadata: { name: 'sample' }, status: { observedIgnore: true } },
    { observedIgnore: true },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository reports its observedRecurseSubmodules',
    { metadata: { name: 'sample' }, status: { observedRecurseSubmodules: true } },
    { observedRecurseSubmodules: true },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository ignores a template-generation annotation that is not a number',
    { metadata: annotated('not-a-number'), status: {} },
    {},
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository reports a template-generation annotation given as a number',
    { metadata: { ...annotated(123), generation: 3 }, status: { observedGeneration: 3 } },
    { generation: 3, observedGeneration: 3, resourceTemplateGeneration: 123 },
  ],
  // Bucket/testdata/interpretstatus-test.yaml
  [
    BUCKET,
    "a Bucket reports its conditions and observedGeneration with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: { conditions: BUCKET_CONDITIONS, observedGeneration: -1 },
    },
    { conditions: BUCKET_CONDITIONS, observedGeneration: -1, generation: 1, resourceTemplateGeneration: 1 },
  ],
  [BUCKET, 'a Bucket with no status reports an empty one', { metadata: { name: 'sample' } }, {}],
  [
    BUCKET,
    'a Bucket without the template-generation annotation reports no template generation',
    { metadata: { generation: 2 }, status: { observedGeneration: 2 } },
    { observedGeneration: 2, generation: 2 },
  ],
  [
    BUCKET,
    'a Bucket ignores a template-generation annotation that is not a number',
    { metadata: { ...annotated('not-a-number'), generation: 3 }, status: { observedGeneration: 3 } },
    { observedGeneration: 3, generation: 3 },
  ],
  [
    BUCKET,
    'a Bucket reports its observedIgnore and url',
    { metadata: { generation: 4 }, status: { observedIgnore: true, url: 'http://bucket/example' } },
    { observedIgnore: true, url: 'http://bucket/example', generation: 4 },
  ],
  [
    BUCKET,
    'a Bucket reads the template-generation annotation as a number',
    { metadata: { ...annotated('123'), generation: 6 }, status: { observedGeneration: 6 } },
    { observedGeneration: 6, generation: 6, resourceTemplateGeneration: 123 },
  ],
  // HelmChart/testdata/interpretstatus-test.yaml
  [
    HELM_CHART,
    "a HelmChart reports its chart status, though never its observedGeneration, with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: {
        artifact: CHART_ARTIFACT,
        conditions: CHART_CONDITIONS,
        observedChartName: 'podinfo',
        observedGeneration: 1,
        observedSourceArtifactRevision: 'sha256:61f94c',
        url: 'http://source-controller./helmchart/sample/latest.tar.gz',
      },
    },
    {
      artifact: CHART_ARTIFACT,
      conditions: CHART_CONDITIONS,
      observedChartName: 'podinfo',
      observedSourceArtifactRevision: 'sha256:61f94c',
      url: 'http://source-controller./helmchart/sample/latest.tar.gz',
      generation: 1,
      resourceTemplateGeneration: 1,
    },
  ],
  [HELM_CHART, 'a HelmChart with no status reports an empty one', { metadata: { name: 'sample' } }, {}],
  [
    HELM_CHART,
    'a HelmChart without the template-generation annotation reports its generation alone',
    { metadata: { generation: 2 }, status: { observedGeneration: 2 } },
    { generation: 2 },
  ],
  [
    HELM_CHART,
    'a HelmChart drops an empty artifact and a template generation that is not a number',
    { metadata: annotated('not-a-number'), status: { artifact: {} } },
    {},
  ],
  [
    HELM_CHART,
    'a HelmChart without conditions reports its artifact',
    { metadata: { generation: 1 }, status: { artifact: { revision: '1.0.0' } } },
    { artifact: { revision: '1.0.0' }, generation: 1 },
  ],
  // HelmRepository/testdata/interpretstatus-test.yaml
  [
    HELM_REPOSITORY,
    "a HelmRepository reports its artifact, conditions and url with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: {
        artifact: REPOSITORY_ARTIFACT,
        conditions: REPOSITORY_CONDITIONS,
        observedGeneration: 1,
        url: 'http://source-controller./helmrepository/sample/index.yaml',
      },
    },
    {
      artifact: REPOSITORY_ARTIFACT,
      conditions: REPOSITORY_CONDITIONS,
      observedGeneration: 1,
      url: 'http://source-controller./helmrepository/sample/index.yaml',
      generation: 1,
      resourceTemplateGeneration: 1,
    },
  ],
  [HELM_REPOSITORY, 'a HelmRepository with no status reports an empty one', { metadata: { name: 'podinfo' } }, {}],
  [
    HELM_REPOSITORY,
    'a HelmRepository without the template-generation annotation reports no template generation',
    { metadata: { generation: 2 }, status: { observedGeneration: 2 } },
    { observedGeneration: 2, generation: 2 },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository reads the template-generation annotation as a number',
    { metadata: { ...annotated('123'), generation: 4 }, status: { observedGeneration: 4 } },
    { observedGeneration: 4, generation: 4, resourceTemplateGeneration: 123 },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository without conditions reports its artifact',
    { metadata: { generation: 3 }, status: { artifact: { revision: 'sha256:test' } } },
    { artifact: { revision: 'sha256:test' }, generation: 3 },
  ],
  // OCIRepository/testdata/interpretstatus-test.yaml
  [
    OCI_REPOSITORY,
    "an OCIRepository reports its artifact, conditions and url with its generation and the template's",
    {
      metadata: { ...annotated('1'), generation: 1 },
      spec: { suspend: true },
      status: {
        artifact: OCI_ARTIFACT,
        conditions: OCI_CONDITIONS,
        observedGeneration: 1,
        url: 'http://source-controller./ocirepository/sample/latest.tar.gz',
      },
    },
    {
      artifact: OCI_ARTIFACT,
      conditions: OCI_CONDITIONS,
      observedGeneration: 1,
      url: 'http://source-controller./ocirepository/sample/latest.tar.gz',
      generation: 1,
      resourceTemplateGeneration: 1,
    },
  ],
  [OCI_REPOSITORY, 'an OCIRepository with no status reports an empty one', { metadata: { name: 'sample' } }, {}],
  [
    OCI_REPOSITORY,
    'an OCIRepository without the template-generation annotation reports no template generation',
    { metadata: { generation: 2 }, status: { observedGeneration: 2 } },
    { observedGeneration: 2, generation: 2 },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository ignores a template-generation annotation that is not a number',
    { metadata: annotated('not-a-number'), status: {} },
    {},
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository reads the template-generation annotation as a number',
    { metadata: { ...annotated('123'), generation: 4 }, status: { observedGeneration: 4 } },
    { observedGeneration: 4, generation: 4, resourceTemplateGeneration: 123 },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository without conditions reports its artifact',
    { metadata: { generation: 3 }, status: { artifact: { revision: 'sha256:test' } } },
    { artifact: { revision: 'sha256:test' }, generation: 3 },
  ],
];

for (const [key, name, observed, status] of reflectCases) {
  test(name, () => {
    assert.equal(interpreter(key).reflectStatus({ ...typeOf(key), ...observed }), status);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Dependencies

const dependencyCases: [
  key: string,
  name: string,
  spec: Obj | undefined,
  references: DependentObjectReference[],
  namespace?: string,
][] = [
  // HelmRelease/testdata/dependencyInterpretation-test.yaml
  [
    HELM_RELEASE,
    'a HelmRelease depends on the Secret its values come from',
    { valuesFrom: [{ kind: 'Secret', name: 'my-secret' }] },
    [secret('my-secret', 'default')],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease depends on the ConfigMap its values come from',
    { valuesFrom: [{ kind: 'ConfigMap', name: 'my-configmap' }] },
    [configMap('my-configmap', 'default')],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease depends on the Secret that verifies its chart',
    { chart: { spec: { chart: './charts/podinfo', verify: { secretRef: { name: 'verify-secret' } } } } },
    [secret('verify-secret', 'default')],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease depends on its kubeconfig Secret',
    { kubeConfig: { secretRef: { name: 'kubeconfig-secret' } } },
    [secret('kubeconfig-secret', 'default')],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease depends on its ServiceAccount',
    { serviceAccountName: 'my-serviceaccount' },
    [serviceAccount('my-serviceaccount', 'default')],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease depends on all the objects it names, in order',
    {
      valuesFrom: [
        { kind: 'Secret', name: 'values-secret' },
        { kind: 'ConfigMap', name: 'values-configmap' },
      ],
      chart: { spec: { verify: { secretRef: { name: 'verify-secret' } } } },
      kubeConfig: { secretRef: { name: 'kubeconfig-secret' } },
      serviceAccountName: 'my-serviceaccount',
    },
    [
      configMap('values-configmap', 'default'),
      secret('kubeconfig-secret', 'default'),
      secret('values-secret', 'default'),
      secret('verify-secret', 'default'),
      serviceAccount('my-serviceaccount', 'default'),
    ],
    'default',
  ],
  [
    HELM_RELEASE,
    'a HelmRelease that names nothing has no dependencies',
    { interval: '5m', chart: { spec: { chart: './charts/podinfo' } } },
    [],
    'default',
  ],
  // Kustomization/testdata/dependencyinterpretation-test.yaml
  [
    KUSTOMIZATION,
    'a Kustomization depends on its decryption Secret',
    { decryption: { secretRef: { name: 'decryption-secret' } } },
    [secret('decryption-secret', 'flux')],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization depends on its kubeconfig Secret',
    { kubeConfig: { secretRef: { name: 'kubeconfig-secret' } } },
    [secret('kubeconfig-secret', 'flux')],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization depends on its ServiceAccount',
    { serviceAccountName: 'my-service-account' },
    [serviceAccount('my-service-account', 'flux')],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization depends on all the objects it names',
    {
      decryption: { secretRef: { name: 'decryption-secret' } },
      kubeConfig: { secretRef: { name: 'kubeconfig-secret' } },
      serviceAccountName: 'my-service-account',
    },
    [
      secret('decryption-secret', 'flux'),
      secret('kubeconfig-secret', 'flux'),
      serviceAccount('my-service-account', 'flux'),
    ],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization that names nothing has no dependencies',
    { path: './kustomize', prune: true },
    [],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization ignores a Secret reference with an empty name',
    { decryption: { secretRef: { name: '' } }, serviceAccountName: 'my-service-account' },
    [serviceAccount('my-service-account', 'flux')],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization ignores an empty serviceAccountName',
    { decryption: { secretRef: { name: 'decryption-secret' } }, serviceAccountName: '' },
    [secret('decryption-secret', 'flux')],
    'flux',
  ],
  [
    KUSTOMIZATION,
    'a Kustomization names a Secret it uses twice once',
    {
      decryption: { secretRef: { name: 'shared-secret' } },
      kubeConfig: { secretRef: { name: 'shared-secret' } },
      serviceAccountName: 'my-service-account',
    },
    [secret('shared-secret', 'flux'), serviceAccount('my-service-account', 'flux')],
    'flux',
  ],
  // GitRepository/testdata/interpretdependency-test.yaml
  [
    GIT_REPOSITORY,
    'a GitRepository depends on its credentials Secret',
    { secretRef: { name: 'git-secret' } },
    [secret('git-secret', 'git')],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository does not depend on its certSecretRef',
    { certSecretRef: { name: 'cert-secret' } },
    [],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository with credentials and a certSecretRef depends on the credentials alone',
    { secretRef: { name: 'git-secret' }, certSecretRef: { name: 'cert-secret' } },
    [secret('git-secret', 'git')],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository depends on the Secret that verifies its commits',
    { verify: { secretRef: { name: 'verify-secret' } } },
    [secret('verify-secret', 'git')],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository ignores Secret references with empty names',
    { secretRef: { name: '' }, verify: { secretRef: { name: '' } } },
    [],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository depends on both its credentials and its verification Secrets',
    { secretRef: { name: 'repo-secret' }, verify: { secretRef: { name: 'verify-secret' } } },
    [secret('repo-secret', 'git'), secret('verify-secret', 'git')],
    'git',
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository names a Secret it uses twice once',
    { secretRef: { name: 'shared-secret' }, verify: { secretRef: { name: 'shared-secret' } } },
    [secret('shared-secret', 'git')],
    'git',
  ],
  // Bucket/testdata/interpretdependency-test.yaml
  [
    BUCKET,
    'a Bucket depends on its credentials Secret',
    { secretRef: { name: 'bucket-secret' } },
    [secret('bucket-secret', 'default')],
    'default',
  ],
  [BUCKET, 'a Bucket without credentials has no dependencies, metadata or not', {}, []],
  [BUCKET, 'a Bucket ignores a Secret reference with an empty name', { secretRef: { name: '' } }, [], 'test-bucket'],
  // HelmChart/testdata/interpretdependency-test.yaml
  [
    HELM_CHART,
    'a HelmChart depends on the Secret that verifies it',
    { verify: { provider: 'cosign', secretRef: { name: 'cosign-public-key' } } },
    [secret('cosign-public-key', 'charts')],
    'charts',
  ],
  [
    HELM_CHART,
    'a HelmChart ignores a verification Secret with an empty name',
    { verify: { provider: 'cosign', secretRef: { name: '' } } },
    [],
    'charts',
  ],
  [
    HELM_CHART,
    'a HelmChart without verification has no dependencies',
    { chart: 'podinfo', interval: '5m0s' },
    [],
    'charts',
  ],
  // HelmRepository/testdata/interpretdependency-test.yaml
  [
    HELM_REPOSITORY,
    'a HelmRepository depends on its credentials Secret',
    { secretRef: { name: 'repo-secret' } },
    [secret('repo-secret', 'repos')],
    'repos',
  ],
  [HELM_REPOSITORY, 'a HelmRepository without credentials has no dependencies', {}, [], 'repos'],
  [
    HELM_REPOSITORY,
    'a HelmRepository ignores a Secret reference with an empty name',
    { secretRef: { name: '' } },
    [],
    'repos',
  ],
  // OCIRepository/testdata/interpretdependency-test.yaml (each with serviceAccountName "")
  [
    OCI_REPOSITORY,
    'an OCIRepository depends on its credentials Secret',
    { secretRef: { name: 'oci-secret' }, serviceAccountName: '' },
    [secret('oci-secret', 'oci')],
    'oci',
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository depends on the Secret that verifies it',
    { verify: { secretRef: { name: 'verify-secret' } }, serviceAccountName: '' },
    [secret('verify-secret', 'oci')],
    'oci',
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository depends on its TLS Secret',
    { certSecretRef: { name: 'cert-secret' }, serviceAccountName: '' },
    [secret('cert-secret', 'oci')],
    'oci',
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository names a Secret it uses twice once',
    { secretRef: { name: 'shared-secret' }, verify: { secretRef: { name: 'shared-secret' } }, serviceAccountName: '' },
    [secret('shared-secret', 'oci')],
    'oci',
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository with an empty serviceAccountName and no Secrets has no dependencies',
    { serviceAccountName: '' },
    [],
    'oci',
  ],
];

for (const [key, name, spec, references, namespace] of dependencyCases) {
  test(name, () => {
    const object = { ...typeOf(key), ...(namespace ? { metadata: { name: 'sample', namespace } } : {}), spec };
    assert.equal(interpreter(key).getDependencies(object), references);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Status aggregation

const item = (clusterName: string | undefined, status: Obj): AggregatedStatusItem =>
  ({ ...(clusterName === undefined ? {} : { clusterName }), status, applied: true }) as AggregatedStatusItem;
const template = (key: string, generation: number | undefined, extra: Obj = {}): Obj => ({
  ...typeOf(key),
  metadata: { name: 'sample', namespace: 'flux', ...(generation === undefined ? {} : { generation }) },
  ...extra,
});
/** The template as aggregated: its generation (0 when it had none) and the status given. */
const aggregated = (desired: Obj, status: Obj): Obj => ({
  ...desired,
  metadata: { generation: 0, ...(desired.metadata as Obj) },
  status,
});

const RELEASE_MEMBER = {
  helmChart: 'test-helmrelease/test-helmrelease-sample',
  lastAppliedRevision: '6.3.5',
  lastAttemptedRevision: '6.3.5',
  lastAttemptedValuesChecksum: 'da39a3ee',
  lastReleaseRevision: 1,
  ...generations(1, 1, 1),
};
const releaseConditions = (time: string) => [
  condition('Ready', 'True', 'ReconciliationSucceeded', 'Release reconciliation succeeded', {
    lastTransitionTime: time,
  }),
  condition('Released', 'True', 'InstallSucceeded', 'Helm install succeeded', { lastTransitionTime: time }),
];
const gitConditions = (time: string) => [
  condition('Ready', 'True', 'Succeeded', "stored artifact for revision 'master@sha1:0647aea'", at(time)),
  condition('ArtifactInStorage', 'True', 'Succeeded', "stored artifact for revision 'master@sha1:0647aea'", at(time)),
];
const gitArtifact = (time: string) => ({ ...GIT_ARTIFACT, lastUpdateTime: time });
const bucketConditions = [
  condition('Reconciling', 'True', 'ProgressingWithRetry', 'building artifact', at('2023-04-29T14:02:31Z')),
  condition('Ready', 'False', 'AuthenticationFailed', "invalid 'fake-secret' secret data", at('2023-04-29T14:02:31Z')),
  condition(
    'FetchFailed',
    'True',
    'AuthenticationFailed',
    "invalid 'fake-secret' secret data",
    at('2023-04-29T14:01:44Z'),
  ),
];
const chartConditions = (time: string) => CHART_CONDITIONS.map((c) => ({ ...c, lastTransitionTime: time }));
const repositoryConditions = (time: string) => REPOSITORY_CONDITIONS.map((c) => ({ ...c, lastTransitionTime: time }));
const both = (message: string, a = 'member1', b = 'member3') => `${a}=${message}, ${b}=${message}`;
const merged = (conditions: Obj[], a = 'member1', b = 'member3') =>
  conditions.map((c) => ({ ...c, message: both(c.message as string, a, b) }));
const STALE = [item(undefined, generations(5, 5, 5)), item(undefined, generations(5, 4, 5))];
const DIFFERENT_REASONS = [
  item('member1', { conditions: [condition('Ready', 'True', 'Succeeded', 'ok')] }),
  item('member2', { conditions: [condition('Ready', 'False', 'Failed', 'error')] }),
];
const DIFFERENT_REASONS_MERGED = [
  condition('Ready', 'True', 'Succeeded', 'member1=ok'),
  condition('Ready', 'False', 'Failed', 'member2=error'),
];

const aggregateCases: [key: string, name: string, desired: Obj, items: AggregatedStatusItem[], status: Obj][] = [
  // HelmRelease/testdata/aggregatestatus-test.yaml
  [
    HELM_RELEASE,
    "a HelmRelease aggregates its members' conditions, revisions and chart, observing its generation once all applied it",
    template(HELM_RELEASE, 1, { spec: { interval: '5m' } }),
    [
      item('member1', { conditions: releaseConditions('2023-05-01T07:11:16Z'), ...RELEASE_MEMBER }),
      item('member3', { conditions: releaseConditions('2023-05-01T07:11:17Z'), ...RELEASE_MEMBER }),
    ],
    {
      conditions: merged(releaseConditions('2023-05-01T07:11:16Z')),
      helmChart: 'test-helmrelease/test-helmrelease-sample',
      lastAppliedRevision: '6.3.5',
      lastAttemptedRevision: '6.3.5',
      lastAttemptedValuesChecksum: 'da39a3ee',
      lastReleaseRevision: 1,
      observedGeneration: 1,
    },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease on no member gets an initial status observing its generation',
    template(HELM_RELEASE, 1, { spec: { interval: '5m' } }),
    [],
    {
      observedGeneration: 1,
      lastAttemptedRevision: '',
      lastAppliedRevision: '',
      lastAttemptedValuesChecksum: '',
      helmChart: '',
      lastReleaseRevision: '',
      failures: 0,
      upgradeFailures: 0,
      installFailures: 0,
    },
  ],
  [
    HELM_RELEASE,
    "a HelmRelease merges its members' identical conditions into one message",
    template(HELM_RELEASE, 1),
    [
      item('member1', {
        conditions: [condition('Ready', 'True', 'ReconciliationSucceeded', 'Release reconciliation succeeded')],
        ...generations(1, 1, 1),
      }),
      item('member2', {
        conditions: [condition('Ready', 'True', 'ReconciliationSucceeded', 'Release reconciliation succeeded')],
        ...generations(1, 1, 1),
      }),
    ],
    {
      conditions: [
        condition(
          'Ready',
          'True',
          'ReconciliationSucceeded',
          both('Release reconciliation succeeded', 'member1', 'member2'),
        ),
      ],
      observedGeneration: 1,
    },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease takes the revisions of the last member that reports them',
    template(HELM_RELEASE, 1),
    [
      item('member1', {
        lastAttemptedRevision: '6.3.5',
        lastAppliedRevision: '6.3.5',
        lastReleaseRevision: 1,
        ...generations(1, 1, 1),
      }),
      item('member2', {
        lastAttemptedRevision: '6.3.6',
        lastAppliedRevision: '6.3.6',
        lastReleaseRevision: 2,
        ...generations(1, 1, 1),
      }),
    ],
    { observedGeneration: 1, lastAttemptedRevision: '6.3.6', lastAppliedRevision: '6.3.6', lastReleaseRevision: 2 },
  ],
  [
    HELM_RELEASE,
    "a HelmRelease adds up its members' failure counts",
    template(HELM_RELEASE, 1, { status: { failures: 0, upgradeFailures: 0, installFailures: 0 } }),
    [
      item('member1', { failures: 2, upgradeFailures: 1, installFailures: 1, ...generations(1, 1, 1) }),
      item('member2', { failures: 3, upgradeFailures: 2, installFailures: 1, ...generations(1, 1, 1) }),
    ],
    { observedGeneration: 1, failures: 5, upgradeFailures: 3, installFailures: 2 },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease observes its generation when every member applied it, whatever generation the members are at',
    template(HELM_RELEASE, 2),
    [item('member1', generations(2, 2, 2)), item('member2', generations(1, 1, 2))],
    { observedGeneration: 2 },
  ],
  [
    HELM_RELEASE,
    'a HelmRelease keeps its observedGeneration while a member has not observed its own generation',
    template(HELM_RELEASE, 2),
    [item('member1', generations(2, 2, 2)), item('member2', generations(2, 1, 2))],
    { observedGeneration: 0 },
  ],
  // Kustomization/testdata/aggregatestatus-test.yaml
  [
    KUSTOMIZATION,
    'a Kustomization on no member gets an initial status observing its generation',
    template(KUSTOMIZATION, 2, { spec: { path: './kustomize', prune: true } }),
    [],
    { observedGeneration: 2, lastAttemptedRevision: '', lastAppliedRevision: '' },
  ],
  [
    KUSTOMIZATION,
    "a Kustomization on one member takes its revisions and prefixes its conditions' messages with the cluster",
    template(KUSTOMIZATION, 1, { spec: { path: './kustomize' } }),
    [
      item('member1', {
        conditions: [APPLIED],
        lastAppliedRevision: 'master@sha1:0647aea',
        lastAttemptedRevision: 'master@sha1:0647aea',
        ...generations(1, 1, 1),
      }),
    ],
    {
      conditions: [{ ...APPLIED, message: 'member1=Applied revision: master@sha1:0647aea' }],
      lastAppliedRevision: 'master@sha1:0647aea',
      lastAttemptedRevision: 'master@sha1:0647aea',
      observedGeneration: 1,
    },
  ],
  [
    KUSTOMIZATION,
    'a Kustomization keeps different conditions apart and skips an empty revision',
    template(KUSTOMIZATION, 1),
    [
      item('member1', {
        conditions: [APPLIED],
        lastAppliedRevision: 'master@sha1:0647aea',
        lastAttemptedRevision: 'master@sha1:0647aea',
        ...generations(1, 1, 1),
      }),
      item('member2', {
        conditions: [
          condition('Ready', 'False', 'ReconciliationFailed', 'Reconciliation failed', at('2023-04-30T12:52:00Z')),
        ],
        lastAppliedRevision: '',
        lastAttemptedRevision: 'master@sha1:0647aeb',
        ...generations(1, 1, 1),
      }),
    ],
    {
      conditions: [
        { ...APPLIED, message: 'member1=Applied revision: master@sha1:0647aea' },
        condition(
          'Ready',
          'False',
          'ReconciliationFailed',
          'member2=Reconciliation failed',
          at('2023-04-30T12:52:00Z'),
        ),
      ],
      lastAppliedRevision: 'master@sha1:0647aea',
      lastAttemptedRevision: 'master@sha1:0647aeb',
      observedGeneration: 1,
    },
  ],
  [
    KUSTOMIZATION,
    "a Kustomization merges its members' identical conditions, keeping the first one's other fields",
    template(KUSTOMIZATION, 1),
    [
      item('member1', {
        conditions: [{ ...APPLIED, message: 'Applied revision: master@sha1:abc123' }],
        lastAppliedRevision: 'master@sha1:abc123',
        lastAttemptedRevision: 'master@sha1:abc123',
        ...generations(1, 1, 1),
      }),
      item('member2', {
        conditions: [
          { ...APPLIED, message: 'Applied revision: master@sha1:def456', lastTransitionTime: '2023-04-30T12:51:07Z' },
        ],
        lastAppliedRevision: 'master@sha1:def456',
        lastAttemptedRevision: 'master@sha1:def456',
        ...generations(1, 1, 1),
      }),
    ],
    {
      conditions: [
        {
          ...APPLIED,
          message: 'member1=Applied revision: master@sha1:abc123, member2=Applied revision: master@sha1:def456',
        },
      ],
      lastAppliedRevision: 'master@sha1:def456',
      lastAttemptedRevision: 'master@sha1:def456',
      observedGeneration: 1,
    },
  ],
  // GitRepository/testdata/aggregatestatus-test.yaml
  [
    GIT_REPOSITORY,
    "a GitRepository aggregates its members' conditions and takes the last member's artifact",
    template(GIT_REPOSITORY, 1, { spec: { interval: '30s', ref: { branch: 'master' } } }),
    [
      item('member1', {
        artifact: gitArtifact('2023-05-01T10:17:09Z'),
        conditions: gitConditions('2023-05-01T10:17:09Z'),
        ...generations(1, 1, 1),
      }),
      item('member3', {
        artifact: gitArtifact('2023-05-01T10:17:08Z'),
        conditions: gitConditions('2023-05-01T10:17:08Z'),
        ...generations(1, 1, 1),
      }),
    ],
    {
      artifact: gitArtifact('2023-05-01T10:17:08Z'),
      conditions: merged(gitConditions('2023-05-01T10:17:09Z')),
      observedGeneration: 1,
    },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository keeps its observedGeneration while a member is stale',
    template(GIT_REPOSITORY, 2, { status: { observedGeneration: 1 } }),
    [item(undefined, generations(2, 2, 2)), item(undefined, generations(2, 1, 2))],
    { observedGeneration: 1 },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository on no member observes its generation, with no artifact or conditions',
    template(GIT_REPOSITORY, 3),
    [],
    { observedGeneration: 3 },
  ],
  [
    GIT_REPOSITORY,
    "a GitRepository takes the last member's artifact when members differ",
    template(GIT_REPOSITORY, 1),
    [
      item('member1', { artifact: { revision: 'master@sha1:aaaa1111', path: 'artifact-a.tar.gz' } }),
      item('member2', { artifact: { revision: 'master@sha1:bbbb2222', path: 'artifact-b.tar.gz' } }),
    ],
    { artifact: { revision: 'master@sha1:bbbb2222', path: 'artifact-b.tar.gz' }, observedGeneration: 0 },
  ],
  [
    GIT_REPOSITORY,
    'a GitRepository keeps conditions of the same type with different reasons apart',
    template(GIT_REPOSITORY, undefined),
    DIFFERENT_REASONS,
    { conditions: DIFFERENT_REASONS_MERGED, observedGeneration: 0 },
  ],
  // Bucket/testdata/aggregatestatus-test.yaml
  [
    BUCKET,
    "a Bucket merges its members' conditions and keeps its observedGeneration while members have observed none",
    template(BUCKET, 1, { spec: { bucketName: 'podinfo', secretRef: { name: 'fake-minio-credentials' } } }),
    [
      item('member1', { conditions: bucketConditions, ...generations(1, -1, 1) }),
      item('member3', { conditions: bucketConditions, ...generations(1, -1, 1) }),
    ],
    { conditions: merged(bucketConditions), observedGeneration: 0, url: '' },
  ],
  [
    BUCKET,
    'a Bucket on no member observes its generation with an empty url',
    template(BUCKET, 3),
    [],
    { url: '', observedGeneration: 3 },
  ],
  [
    BUCKET,
    'a Bucket keeps its observedGeneration while a member is stale',
    template(BUCKET, 5, { status: { observedGeneration: 4 } }),
    STALE,
    { observedGeneration: 4, url: '' },
  ],
  [
    BUCKET,
    'a Bucket keeps conditions of the same type with different reasons apart',
    template(BUCKET, undefined),
    DIFFERENT_REASONS,
    { conditions: DIFFERENT_REASONS_MERGED, observedGeneration: 0, url: '' },
  ],
  [
    BUCKET,
    'a Bucket ignores an empty url from a member',
    template(BUCKET, undefined),
    [item(undefined, { url: '' }), item(undefined, { url: 'http://bucket/valid' })],
    { observedGeneration: 0, url: 'http://bucket/valid' },
  ],
  [
    BUCKET,
    "a Bucket takes the last member's artifact when members differ",
    template(BUCKET, 1),
    [
      item('member1', { artifact: { path: 'artifact-a.tar.gz', revision: 'rev-a' } }),
      item('member2', { artifact: { path: 'artifact-b.tar.gz', revision: 'rev-b' } }),
    ],
    { artifact: { path: 'artifact-b.tar.gz', revision: 'rev-b' }, observedGeneration: 0, url: '' },
  ],
  // HelmChart/testdata/aggregatestatus-test.yaml
  [
    HELM_CHART,
    "a HelmChart aggregates its members' conditions and takes the last member's artifact, chart name, source revision and url",
    template(HELM_CHART, 1, { spec: { chart: 'podinfo', version: '5.*' } }),
    [
      item('member1', {
        artifact: { ...CHART_ARTIFACT, lastUpdateTime: '2023-04-30T07:22:36Z' },
        conditions: chartConditions('2023-04-30T07:22:36Z'),
        observedChartName: 'podinfo',
        observedSourceArtifactRevision: 'sha256:61f94c',
        url: 'http://source-controller./helmchart/sample/latest.tar.gz',
        ...generations(1, 1, 1),
      }),
      item('member3', {
        artifact: { ...CHART_ARTIFACT, lastUpdateTime: '2023-04-30T07:22:37Z' },
        conditions: chartConditions('2023-04-30T07:22:37Z'),
        observedChartName: 'podinfo',
        observedSourceArtifactRevision: 'sha256:61f94c',
        url: 'http://source-controller./helmchart/sample/latest.tar.gz',
        ...generations(1, 1, 1),
      }),
    ],
    {
      artifact: { ...CHART_ARTIFACT, lastUpdateTime: '2023-04-30T07:22:37Z' },
      conditions: merged(chartConditions('2023-04-30T07:22:36Z')),
      observedChartName: 'podinfo',
      observedGeneration: 1,
      observedSourceArtifactRevision: 'sha256:61f94c',
      url: 'http://source-controller./helmchart/sample/latest.tar.gz',
    },
  ],
  [
    HELM_CHART,
    'a HelmChart on no member observes its generation with empty chart fields',
    template(HELM_CHART, 3),
    [],
    { observedChartName: '', observedSourceArtifactRevision: '', observedGeneration: 3, url: '' },
  ],
  [
    HELM_CHART,
    'a HelmChart keeps its observedGeneration while a member is stale',
    template(HELM_CHART, 5, { status: { observedGeneration: 4 } }),
    STALE,
    { observedGeneration: 4, observedChartName: '', observedSourceArtifactRevision: '', url: '' },
  ],
  [
    HELM_CHART,
    "a HelmChart takes the last member's artifact when members differ",
    template(HELM_CHART, 1, { spec: { chart: 'podinfo', version: '5.*' } }),
    [
      item('member1', {
        artifact: {
          revision: '5.2.0',
          path: 'helmchart/podinfo-5.2.0.tgz',
          url: 'http://example.com/podinfo-5.2.0.tgz',
        },
      }),
      item('member2', {
        artifact: {
          revision: '5.2.1',
          path: 'helmchart/podinfo-5.2.1.tgz',
          url: 'http://example.com/podinfo-5.2.1.tgz',
        },
      }),
    ],
    {
      artifact: { revision: '5.2.1', path: 'helmchart/podinfo-5.2.1.tgz', url: 'http://example.com/podinfo-5.2.1.tgz' },
      observedChartName: '',
      observedSourceArtifactRevision: '',
      observedGeneration: 0,
      url: '',
    },
  ],
  // HelmRepository/testdata/aggregatestatus-test.yaml
  [
    HELM_REPOSITORY,
    "a HelmRepository aggregates its members' conditions and takes the last member's artifact and url",
    template(HELM_REPOSITORY, 1, {
      spec: { url: 'https://stefanprodan.github.io/podinfo', secretRef: { name: 'fake-secret' } },
    }),
    [
      item('member1', {
        artifact: REPOSITORY_ARTIFACT,
        conditions: repositoryConditions('2023-04-29T09:30:31Z'),
        url: 'http://source-controller./helmrepository/sample/index.yaml',
        ...generations(1, 1, 1),
      }),
      item('member3', {
        artifact: { ...REPOSITORY_ARTIFACT, lastUpdateTime: '2023-04-29T09:30:33Z' },
        conditions: repositoryConditions('2023-04-29T09:30:33Z'),
        url: 'http://source-controller./helmrepository/sample/index.yaml',
        ...generations(1, 1, 1),
      }),
    ],
    {
      artifact: { ...REPOSITORY_ARTIFACT, lastUpdateTime: '2023-04-29T09:30:33Z' },
      conditions: merged(repositoryConditions('2023-04-29T09:30:31Z')),
      observedGeneration: 1,
      url: 'http://source-controller./helmrepository/sample/index.yaml',
    },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository on no member observes its generation with an empty url',
    template(HELM_REPOSITORY, 3),
    [],
    { observedGeneration: 3, url: '' },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository keeps its observedGeneration while a member is stale',
    template(HELM_REPOSITORY, 5, { status: { observedGeneration: 4 } }),
    STALE,
    { observedGeneration: 4, url: '' },
  ],
  [
    HELM_REPOSITORY,
    "a HelmRepository takes the last member's artifact when members differ",
    template(HELM_REPOSITORY, 1),
    [
      item('member1', { artifact: { revision: 'sha256:aaaa1111', path: 'index-a.yaml' } }),
      item('member2', { artifact: { revision: 'sha256:bbbb2222', path: 'index-b.yaml' } }),
    ],
    { artifact: { revision: 'sha256:bbbb2222', path: 'index-b.yaml' }, observedGeneration: 0, url: '' },
  ],
  [
    HELM_REPOSITORY,
    'a HelmRepository keeps conditions of the same type with different reasons apart',
    template(HELM_REPOSITORY, undefined),
    DIFFERENT_REASONS,
    { conditions: DIFFERENT_REASONS_MERGED, observedGeneration: 0, url: '' },
  ],
  // OCIRepository/testdata/aggregatestatus-test.yaml
  [
    OCI_REPOSITORY,
    "an OCIRepository aggregates its members' conditions and takes the last member's artifact and url",
    template(OCI_REPOSITORY, 1, {
      spec: {
        url: 'oci://ghcr.io/stefanprodan/podinfo-deploy',
        ref: { semver: '6.2.x' },
        serviceAccountName: 'fake-serviceaccount',
      },
    }),
    [
      item('member1', {
        artifact: OCI_ARTIFACT,
        conditions: OCI_CONDITIONS,
        url: 'http://source-controller./ocirepository/sample/latest.tar.gz',
        ...generations(1, 1, 1),
      }),
      item('member3', {
        artifact: OCI_ARTIFACT,
        conditions: OCI_CONDITIONS,
        url: 'http://source-controller./ocirepository/sample/latest.tar.gz',
        ...generations(1, 1, 1),
      }),
    ],
    {
      observedGeneration: 1,
      artifact: OCI_ARTIFACT,
      url: 'http://source-controller./ocirepository/sample/latest.tar.gz',
      conditions: merged(OCI_CONDITIONS),
    },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository without a status keeps observedGeneration 0 while a member is stale',
    template(OCI_REPOSITORY, 2),
    [item('member1', generations(2, 2, 2)), item('member2', generations(2, 1, 2))],
    { observedGeneration: 0, url: '' },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository on no member observes its generation with an empty url',
    template(OCI_REPOSITORY, 5),
    [],
    { observedGeneration: 5, url: '' },
  ],
  [
    OCI_REPOSITORY,
    "an OCIRepository takes the last member's artifact when members differ",
    template(OCI_REPOSITORY, 1),
    [
      item('member1', { artifact: { revision: 'v1' }, ...generations(1, 1, 1) }),
      item('member2', { artifact: { revision: 'v2' }, ...generations(1, 1, 1) }),
    ],
    { observedGeneration: 1, artifact: { revision: 'v2' }, url: '' },
  ],
  [
    OCI_REPOSITORY,
    'an OCIRepository keeps conditions with different reasons apart',
    template(OCI_REPOSITORY, 1),
    [
      item('member1', { conditions: [condition('Ready', 'True', 'Succeeded', 'ok')], ...generations(1, 1, 1) }),
      item('member2', { conditions: [condition('Ready', 'True', 'Progressing', 'syncing')], ...generations(1, 1, 1) }),
    ],
    {
      observedGeneration: 1,
      url: '',
      conditions: [
        condition('Ready', 'True', 'Succeeded', 'member1=ok'),
        condition('Ready', 'True', 'Progressing', 'member2=syncing'),
      ],
    },
  ],
];

for (const [key, name, desired, items, status] of aggregateCases) {
  test(name, () => {
    const before = structuredClone({ desired, items });
    assert.equal(interpreter(key).aggregateStatus(desired, items), aggregated(desired, status));
    assert.equal({ desired, items }, before);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Behaviour of Karmada's Lua scripts beyond its testdata

test('an OCIRepository without a serviceAccountName fails its dependency interpretation, as Karmada indexes a set with nil', () => {
  const desired = {
    ...typeOf(OCI_REPOSITORY),
    metadata: { namespace: 'oci' },
    spec: { secretRef: { name: 'oci-secret' } },
  };
  assert.throws(
    () => interpreter(OCI_REPOSITORY).getDependencies(desired),
    (err: unknown) => err instanceof LuaHookError,
  );
});

test('a Secret reference without a name fails the dependency interpretation', () => {
  const desired = { ...typeOf(BUCKET), metadata: { namespace: 'b' }, spec: { secretRef: {} } };
  assert.throws(
    () => interpreter(BUCKET).getDependencies(desired),
    (err: unknown) => err instanceof LuaHookError,
  );
});

test('a dependency in an object without a namespace is named without one', () => {
  const desired = { ...typeOf(HELM_REPOSITORY), metadata: { name: 'x' }, spec: { secretRef: { name: 'repo' } } };
  assert.equal(interpreter(HELM_REPOSITORY).getDependencies(desired), [secret('repo')]);
});

test('the template-generation annotation is read as gopher-lua tonumber reads it', () => {
  const reflectWith = (value: string) =>
    interpreter(GIT_REPOSITORY).reflectStatus({ metadata: annotated(value), status: { observedIgnore: true } })
      .resourceTemplateGeneration;
  assert.is(reflectWith(' 7\n'), 7);
  assert.is(reflectWith('0x1A'), 26);
  assert.is(reflectWith('1.5e3'), 1500);
  assert.is(reflectWith('.5'), 0.5);
  assert.is(reflectWith('1e3'), undefined);
  assert.is(reflectWith('12_3'), undefined);
  assert.is(reflectWith(''), undefined);
});

test('empty fields and nulls in a reflected status are dropped, as Lua returns them', () => {
  const observed = { status: { conditions: [], artifact: {}, url: null, observedGeneration: 2 } };
  assert.equal(interpreter(BUCKET).reflectStatus(observed), { observedGeneration: 2 });
});

test("a HelmRelease's failure counts add up only when the template's status has them", () => {
  const desired = template(HELM_RELEASE, 1, { status: { failures: 1 } });
  const items = [item('m', { failures: 2, installFailures: 4, ...generations(1, 1, 1) })];
  const status = interpreter(HELM_RELEASE).aggregateStatus(desired, items).status as Obj;
  assert.is(status.failures, 3);
  assert.is(status.installFailures, undefined);
});

test('an aggregated source drops the artifact the template had when no member reports one', () => {
  const desired = template(GIT_REPOSITORY, 1, { status: { artifact: { revision: 'old' }, observedGeneration: 1 } });
  assert.equal(interpreter(GIT_REPOSITORY).aggregateStatus(desired, [item('m', generations(1, 1, 1))]).status, {
    observedGeneration: 1,
  });
  assert.equal(interpreter(GIT_REPOSITORY).aggregateStatus(desired, []).status, { observedGeneration: 1 });
});

test('a condition without a message fails the aggregation, as Lua cannot concatenate nil', () => {
  const items = [item('m', { conditions: [{ type: 'Ready', status: 'True' }] })];
  assert.throws(
    () => interpreter(KUSTOMIZATION).aggregateStatus(template(KUSTOMIZATION, 1), items),
    (err: unknown) => err instanceof LuaHookError,
  );
});

test('each Flux kind defines exactly the operations of its Karmada customization', () => {
  const operations = ['aggregateStatus', 'getDependencies', 'interpretHealth', 'reflectStatus', 'retain'];
  for (const key of [HELM_RELEASE, KUSTOMIZATION, GIT_REPOSITORY, BUCKET, HELM_CHART, HELM_REPOSITORY, OCI_REPOSITORY])
    assert.equal(Object.keys(interpreter(key)).sort(), operations, key);
  assert.is(Object.keys(FLUX).length, 7);
});

test.run();
