// The files other tools read on both branches, as the renderer and the status writer write them, against the JSON
// Schemas published in docs/schemas/. Every file on either branch must have a schema: a new kind of file is a
// change of the contract and comes with its schema and a line in docs/BRANCHES.md.
import { parseAutoscalerDecision, serializeAutoscalerDecision } from '../../src/branches/status/autoscalerDecisions.ts';
import { serializeExportedEndpoints } from '../../src/branches/status/exportedEndpoints.ts';
import { multiClusterServiceStatusEdits } from '../../src/statuses/multiClusterServiceConditions.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { parseTrailers } from '../../src/branches/rendered/trailers.ts';
import type { IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { makeFleetRepo } from '../views/helpers/fleetRepo.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { widget, widgetCrd } from '../helpers/widgets.ts';

const SCHEMAS = path.resolve(import.meta.dirname, '../../docs/schemas');
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const schema = (name: string): ValidateFunction =>
  ajv.compile(JSON.parse(readFileSync(path.join(SCHEMAS, `${name}.schema.json`), 'utf8')));

/** Path pattern on a branch → the schema its files follow (docs/BRANCHES.md). */
const LAYOUT: Record<string, [RegExp, ValidateFunction][]> = {
  'flotilla/rendered': [
    [/^\.flotilla\/index\.json$/, schema('rendered-index')],
    [/^\.flotilla\/index\/[0-9a-f]{2}\.json$/, schema('rendered-index-shard')],
    [/^\.flotilla\/clusters\.json$/, schema('rendered-clusters')],
    [/^\.flotilla\/released\.json$/, schema('rendered-released')],
    [/^\.flotilla\/interpreters\.json$/, schema('rendered-interpreters')],
    [/^bindings\/[^/]+\/[^/]+\.yaml$/, schema('rendered-binding')],
    [/^clusters\/[^/]+\/[^/]+\/[^/]+\.yaml$/, schema('rendered-manifest')],
    [/^multiclusterservices\/[^/]+\/[^/]+\.yaml$/, schema('rendered-multiclusterservice')],
  ],
  'flotilla/status': [
    [/^clusters\/[^/]+\.yaml$/, schema('status-cluster')],
    [/^templates\/[^/]+\/[^/]+\.yaml$/, schema('status-template')],
    [/^applied\/[^/]+\.yaml$/, schema('status-applied')],
    [/^inventories\/[^/]+\.json$/, schema('status-inventory')],
    [/^endpoints\/[^/]+\.yaml$/, schema('status-endpoints')],
    [/^autoscalers\/[^/]+\/[^/]+\.yaml$/, schema('status-autoscaler')],
    [/^cronautoscalers\/[^/]+\/[^/]+\.yaml$/, schema('status-cronautoscaler')],
    [/^multiclusterservices\/[^/]+\/[^/]+\.yaml$/, schema('status-multiclusterservice')],
    [/^federatedresourcequotas\/[^/]+\/[^/]+\.yaml$/, schema('status-federatedresourcequota')],
  ],
};

test('every file the renderer and the status writer commit follows its published schema', async () => {
  const { repo } = await makeFleetRepo();
  try {
    const git = (...args: string[]) => repo.git(args);
    for (const [branch, layout] of Object.entries(LAYOUT)) {
      const files = git('ls-tree', '-r', '--name-only', branch).trim().split('\n');
      const seen = new Set<RegExp>();
      for (const file of files) {
        const match = layout.find(([pattern]) => pattern.test(file));
        assert.ok(match, `${branch}:${file} has no schema in docs/schemas/`);
        const [pattern, validate] = match;
        seen.add(pattern);
        const text = git('show', `${branch}:${file}`);
        const value: unknown = file.endsWith('.json') ? JSON.parse(text) : parse(text);
        assert.ok(validate(value), `${branch}:${file}: ${ajv.errorsText(validate.errors)}`);
      }
      // The fleet has no template deleted under preserveResourcesOnDeletion, so no released.json, and no
      // MultiClusterService (its schema is checked against real output in test/deliveries/crossClusterServices.test.ts);
      // everything else is there.
      const absent = layout.filter(([p]) => !seen.has(p)).map(([p]) => p.source);
      // Nor a ServiceExport, a FederatedHPA, a MultiClusterService or a FederatedResourceQuota, so no endpoints,
      // autoscaler, MultiClusterService or quota status file (the quota's checked in
      // test/deliveries/federatedResourceQuotaStatus.test.ts, the others below).
      assert.equal(
        absent,
        branch === 'flotilla/rendered'
          ? [
              '^\\.flotilla\\/released\\.json$',
              '^\\.flotilla\\/interpreters\\.json$',
              '^multiclusterservices\\/[^/]+\\/[^/]+\\.yaml$',
            ]
          : [
              '^endpoints\\/[^/]+\\.yaml$',
              '^autoscalers\\/[^/]+\\/[^/]+\\.yaml$',
              '^cronautoscalers\\/[^/]+\\/[^/]+\\.yaml$',
              '^multiclusterservices\\/[^/]+\\/[^/]+\\.yaml$',
              '^federatedresourcequotas\\/[^/]+\\/[^/]+\\.yaml$',
            ],
      );
      assert.is(
        parseTrailers(git('log', '-1', '--format=%B', branch))['Flotilla-Format'],
        '1',
        `${branch} records its format version`,
      );
    }
  } finally {
    repo.cleanup();
  }
});

test("a MultiClusterService's status file follows its schema", () => {
  const validate = schema('status-multiclusterservice');
  const { edits } = multiClusterServiceStatusEdits(
    [
      {
        mcs: {
          apiVersion: 'networking.karmada.io/v1alpha1',
          kind: 'MultiClusterService',
          metadata: { namespace: 'default', name: 'web' },
          spec: { types: ['CrossCluster'] },
        },
        serviceClaimed: true,
        dispatch: [{ consumer: 'member2', expected: ['member1-web-x'], held: new Set(['member1-web-x']) }],
      },
    ],
    new Map(),
    new Date('2026-12-01T10:00:00Z'),
  );
  const value = parse(edits.get('multiclusterservices/default/web.yaml')!) as {
    status: { conditions: { type: string; status: string }[] };
  };
  assert.ok(validate(value), ajv.errorsText(validate.errors));
  assert.equal(
    value.status.conditions.map((c) => `${c.type}=${c.status}`),
    ['ServiceApplied=True', 'EndpointSliceDispatched=True'],
  );
});

test("a FederatedHPA's decision file follows its schema", () => {
  const validate = schema('status-autoscaler');
  const text = serializeAutoscalerDecision({
    apiVersion: 'autoscaling.karmada.io/v1alpha1',
    kind: 'FederatedHPA',
    metadata: { namespace: 'default', name: 'web' },
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    desiredReplicas: 2,
    currentReplicas: 1,
    reason: 'cpu resource utilization (percentage of request) above target',
    ableToScale: 'ReadyForNewScale',
    scalingLimited: 'DesiredWithinRange',
    metrics: [
      {
        resource: 'cpu',
        targetUtilization: 50,
        currentUtilization: 90,
        currentAverageValue: '90m',
        pods: { member1: 1 },
      },
    ],
    lastScaleTime: '2026-12-01T12:00:00Z',
    scaleUpEvents: [{ time: '2026-12-01T12:00:00Z', change: 1 }],
  });
  const value = parse(text);
  assert.ok(validate(value), ajv.errorsText(validate.errors));
  assert.equal(parseAutoscalerDecision(text), value);
});

test("an exporter's endpoints file follows its schema", () => {
  const validate = schema('status-endpoints');
  const text = serializeExportedEndpoints('member1', [
    {
      namespace: 'default',
      name: 'web',
      endpointSlices: [
        { name: 'web-x', addressType: 'IPv4', endpoints: [{ addresses: ['10.210.0.2'] }], ports: [{ port: 8080 }] },
      ],
    },
  ]);
  assert.ok(validate(parse(text!)), ajv.errorsText(validate.errors));
  assert.is(serializeExportedEndpoints('member1', []), null, 'no export, no file');
  assert.not.ok(validate({ cluster: 'member1', services: [] }));
});

test("the output index of a source whose CRD makes a kind cluster-scoped follows its schema (the root's kinds, the file's)", async () => {
  const repos: ConfigRepo[] = [];
  try {
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'policies/widgets.yaml':
          'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: widgets}\nspec:\n  resourceSelectors: [{apiVersion: example.com/v1, kind: Widget}]\n  placement: {clusterAffinity: {clusterNames: [member1]}}\n',
        'crds/widgets.yaml': widgetCrd('Cluster'),
        'plain/widget.yaml': widget('w', 1),
      },
      'a cluster-scoped Widget and its CRD',
    );
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const files = r.ls('flotilla/rendered').filter((f) => f.startsWith('.flotilla/index'));
    const root = JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json'));
    assert.ok(root.clusterScopedKinds, 'the fixture declares a cluster-scoped kind');
    for (const file of files) {
      const validate = LAYOUT['flotilla/rendered']!.find(([pattern]) => pattern.test(file))![1];
      assert.ok(validate(JSON.parse(r.show('flotilla/rendered', file))), `${file}: ${ajv.errorsText(validate.errors)}`);
    }
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test('the output index of a FederatedResourceQuota naming a cluster not registered follows its schema', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'quotas/team.yaml':
          'apiVersion: policy.karmada.io/v1alpha1\nkind: FederatedResourceQuota\nmetadata: {name: team, namespace: shop}\nspec:\n  overall: {cpu: 4}\n  staticAssignments:\n    - {clusterName: member1, hard: {cpu: 1}}\n    - {clusterName: member9, hard: {cpu: 1}}\n',
      },
      'a quota for a registered and an unregistered cluster',
    );
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const files = r.ls('flotilla/rendered').filter((f) => f.startsWith('.flotilla/index'));
    assert.ok(
      files.some((f) => r.show('flotilla/rendered', f).includes('"unregisteredAssignments":["member9"]')),
      'the entry names the unregistered cluster',
    );
    for (const file of files) {
      const validate = LAYOUT['flotilla/rendered']!.find(([pattern]) => pattern.test(file))![1];
      assert.ok(validate(JSON.parse(r.show('flotilla/rendered', file))), `${file}: ${ajv.errorsText(validate.errors)}`);
    }
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test('an index entry holding every field IndexEntry declares follows the shard schema', () => {
  // Required<IndexEntry>: a field added to the type and not to this entry fails the type check, so the published
  // schema cannot fall behind what the renderer writes without this test saying so.
  const entry: Required<IndexEntry> = {
    file: 'templates/app.yaml',
    labels: { app: 'web' },
    policy: 'default/web',
    clusters: ['member1', 'member2'],
    deps: ['v1/ConfigMap/default/settings'],
    evicting: ['member2'],
    scaleTarget: 'apps/v1/Deployment/default/web',
    scaledBy: ['autoscaling/v2/HorizontalPodAutoscaler/default/web'],
    waiting: { replicas: 2, request: { cpu: '100m' } },
    blocked: true,
    awaiting: true,
    claim: 'default/web',
    held: true,
    units: [{ file: 'charts/web/Chart.yaml', clusters: ['member1'] }],
    overwrite: true,
    preserve: true,
    replicas: [1, 1],
    own: ['member1'],
    applicationFailover: { tolerationSeconds: 30 },
    suspended: ['member2'],
    namespaceSync: ['member2'],
    unregisteredAssignments: ['member9'],
    quotaOverall: { cpu: '4', memory: '8Gi' },
  };
  const validate = LAYOUT['flotilla/rendered']!.find(([pattern]) => pattern.test('.flotilla/index/0a.json'))![1];
  const shard = { files: {}, requiredBy: {}, templates: { 'apps/v1/Deployment/default/web': entry } };
  assert.ok(validate(shard), ajv.errorsText(validate.errors));
});

test('a status file that breaks the contract fails its schema', () => {
  const validate = schema('status-inventory');
  assert.ok(
    validate({ version: 1, objects: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' }] }),
  );
  assert.not.ok(validate({ version: 2, objects: [] }), 'an unknown version');
  assert.not.ok(
    validate({ version: 1, objects: [{ kind: 'ConfigMap', name: 'a' }] }),
    'a ref without apiVersion and namespace',
  );
});

test.run();
