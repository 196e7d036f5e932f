// A Cluster read from Git is admitted as Karmada's aggregated API server admits one (pkg/registry/cluster/strategy.go):
// PrepareForCreate standardizes or defaults the resource models, Canonicalize moves a legacy zone into zones
// (pkg/apis/cluster/mutation), then ValidateCluster refuses it (pkg/apis/cluster/validation). A refused Cluster is an
// error on that object and is held; an admitted one is read as the mutation leaves it.
// Cases from pkg/apis/cluster/validation/validation_test.go (TestValidateCluster) and
// pkg/apis/cluster/mutation/mutation_test.go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

type Obj = Record<string, unknown>;

const MAX_INT64 = '9223372036854775807';

/** JSON is YAML: the object goes through the same parse, validation and admission as a file in clusters/. */
function admit(value: Obj) {
  const text = JSON.stringify(value);
  const { documents, problems } = parseDocuments('clusters/c.yaml', new TextEncoder().encode(text));
  return classifyDocuments('clusters/c.yaml', documents, problems);
}

const cluster = (spec: Obj, name = 'foo'): Obj => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  spec,
});

function refused(value: Obj): boolean {
  const out = admit(value);
  return out.clusters.length === 0 && out.problems.some((p) => p.severity === 'error');
}

function admitted(value: Obj) {
  const out = admit(value);
  assert.equal(
    out.problems.map((p) => `${p.code} ${p.message}`),
    [],
  );
  assert.is(out.clusters.length, 1);
  return out.clusters[0]!.object;
}

const range = (name: string, min: string, max: string) => ({ name, min, max });

// ---------------------------------------------------------------- ValidateCluster, the cases as Karmada writes them

test('a Cluster is refused for a bad name, a missing or unknown syncMode, a bad endpoint, proxy, topology or taint', () => {
  const cases: [string, Obj][] = [
    ['zero-length name', cluster({ syncMode: 'Push' }, '')],
    ['invalid name', cluster({ syncMode: 'Push' }, '^Invalid')],
    ['invalid name that is too long', cluster({ syncMode: 'Push' }, 'a'.repeat(49))],
    ['no sync mode', cluster({})],
    ['unsupported sync mode', cluster({ syncMode: '^Invalid' })],
    ['invalid apiEndpoint', cluster({ syncMode: 'Push', apiEndpoint: '^Invalid' })],
    ['empty secretRef', cluster({ syncMode: 'Push', secretRef: {} })],
    ['empty impersonatorSecretRef', cluster({ syncMode: 'Push', impersonatorSecretRef: {} })],
    ['invalid proxyURL', cluster({ syncMode: 'Push', proxyURL: '^Invalid' })],
    ['invalid provider', cluster({ syncMode: 'Push', provider: 'Invalid Provider' })],
    ['invalid region', cluster({ syncMode: 'Push', region: 'Invalid Region' })],
    ['invalid zone', cluster({ syncMode: 'Push', zone: 'Invalid Zone' })],
    ['invalid zones', cluster({ syncMode: 'Push', zones: ['Invalid Zone', 'Zone2'] })],
    ['co-exist zones and zone', cluster({ syncMode: 'Push', zone: 'Zone', zones: ['Zones'] })],
    [
      'unsupported taint effect',
      cluster({ syncMode: 'Push', taints: [{ key: 'foo', value: 'bar', effect: '^Invalid' }] }),
    ],
  ];
  for (const [name, value] of cases) assert.ok(refused(value), name);
});

test('an apiEndpoint with user information is refused, even an empty one before the @, as Go parses it', () => {
  for (const apiEndpoint of ['https://@member1.example.com:6443', 'https://admin@member1.example.com:6443'])
    assert.ok(refused(cluster({ syncMode: 'Push', apiEndpoint })), apiEndpoint);
  // An @ in the path, the query or the fragment is no user information; query and fragment are refused themselves.
  assert.equal(
    admitted(cluster({ syncMode: 'Push', apiEndpoint: 'https://member1.example.com:6443/a@b' })).spec.apiEndpoint,
    'https://member1.example.com:6443/a@b',
  );
});

test('resource models without a syncMode are refused (the cases of TestValidateCluster, as Karmada writes them)', () => {
  const models: Obj[][] = [
    [
      { grade: 1, ranges: [range('cpu', '0', '2')] },
      { grade: 2, ranges: [range('cpu', '2', MAX_INT64)] },
    ],
    [
      { grade: 1, ranges: [range('cpu', '0', '2')] },
      { grade: 2, ranges: [range('cpu', '2', MAX_INT64), range('memory', '2', MAX_INT64)] },
    ],
    [{ grade: 1, ranges: [range('cpu', '2', '0')] }],
    [{ grade: 1, ranges: [range('cpu', '1', MAX_INT64)] }],
    [{ grade: 1, ranges: [range('cpu', '0', '2')] }],
    [
      { grade: 1, ranges: [range('cpu', '0', '2')] },
      { grade: 2, ranges: [range('memory', '2', MAX_INT64)] },
    ],
    [
      { grade: 1, ranges: [range('cpu', '0', '2')] },
      { grade: 2, ranges: [range('cpu', '1', MAX_INT64)] },
    ],
    [{ grade: 1, ranges: [range('test', '0', MAX_INT64)] }],
  ];
  for (const resourceModels of models) assert.ok(refused(cluster({ resourceModels })));
});

test('a secretRef or impersonatorSecretRef with an empty namespace or name is refused', () => {
  // validation.go ValidateClusterSpec: field.Required when SecretRef.Namespace or .Name is "".
  for (const field of ['secretRef', 'impersonatorSecretRef']) {
    assert.ok(
      refused(cluster({ syncMode: 'Push', [field]: { namespace: '', name: 'member1' } })),
      `${field} namespace`,
    );
    assert.ok(
      refused(cluster({ syncMode: 'Push', [field]: { namespace: 'karmada-cluster', name: '' } })),
      `${field} name`,
    );
  }
  admitted(cluster({ syncMode: 'Push', secretRef: { namespace: 'karmada-cluster', name: 'member1' } }));
});

// ---------------------------------------------------------------- resource models: standardized, then validated

test('resource models are validated after they are sorted, the first grade started at 0 and the last one left open', () => {
  // Grades 1 and 2 written out of order, a first minimum of 1 and a last maximum of 2: admission makes them
  // [0, 2) and [2, MaxInt64), which ValidateClusterResourceModels accepts. A resource name is not checked.
  admitted(
    cluster({
      syncMode: 'Push',
      resourceModels: [
        { grade: 2, ranges: [range('cpu', '2', '3')] },
        { grade: 1, ranges: [range('cpu', '1', '2')] },
      ],
    }),
  );
  admitted(cluster({ syncMode: 'Push', resourceModels: [{ grade: 1, ranges: [range('cpu', '2', '0')] }] }));
  admitted(cluster({ syncMode: 'Push', resourceModels: [{ grade: 1, ranges: [range('test', '0', '2')] }] }));
});

test('two resource models of one grade are refused', () => {
  // ValidateClusterResourceModels: "The grade of each models should not be the same".
  assert.ok(
    refused(
      cluster({
        syncMode: 'Push',
        resourceModels: [
          { grade: 1, ranges: [range('cpu', '0', '2')] },
          { grade: 1, ranges: [range('cpu', '2', MAX_INT64)] },
        ],
      }),
    ),
  );
});

test('resource models naming a different number of resources are refused', () => {
  // "The number of resource types should be the same" (validation_test.go: "... with different numbers of resource types").
  assert.ok(
    refused(
      cluster({
        syncMode: 'Push',
        resourceModels: [
          { grade: 1, ranges: [range('cpu', '0', '2')] },
          { grade: 2, ranges: [range('cpu', '2', MAX_INT64), range('memory', '2', MAX_INT64)] },
        ],
      }),
    ),
  );
});

test('resource models naming different resources, in the same position, are refused', () => {
  // "The resource types of each models should be the same" (validation_test.go: "... resource types of each models are different").
  assert.ok(
    refused(
      cluster({
        syncMode: 'Push',
        resourceModels: [
          { grade: 1, ranges: [range('cpu', '0', '2')] },
          { grade: 2, ranges: [range('memory', '2', MAX_INT64)] },
        ],
      }),
    ),
  );
});

test('resource model intervals that overlap or leave a gap are refused', () => {
  // "Model intervals for resources must be contiguous and non-overlapping" (validation_test.go: "... contiguous and non-overlapping").
  for (const min of ['1', '3'])
    assert.ok(
      refused(
        cluster({
          syncMode: 'Push',
          resourceModels: [
            { grade: 1, ranges: [range('cpu', '0', '2')] },
            { grade: 2, ranges: [range('cpu', min, MAX_INT64)] },
          ],
        }),
      ),
      `second grade from ${min}`,
    );
});

test('a middle resource model whose maximum is not above its minimum is refused', () => {
  // "The max value of each resource must be greater than the min value" (validation_test.go: "... unreasonable ranges").
  assert.ok(
    refused(
      cluster({
        syncMode: 'Push',
        resourceModels: [
          { grade: 0, ranges: [range('cpu', '0', '2')] },
          { grade: 1, ranges: [range('cpu', '2', '2')] },
          { grade: 2, ranges: [range('cpu', '2', MAX_INT64)] },
        ],
      }),
    ),
  );
});

// ---------------------------------------------------------------- mutation

test('a legacy zone is moved into zones', () => {
  // mutation_test.go TestMutateCluster "test mutate cluster Zone".
  const spec = admitted(cluster({ syncMode: 'Push', zone: 'zone1' })).spec;
  assert.equal(spec.zones, ['zone1']);
  assert.is(spec.zone, undefined);
});

test('resource models are sorted by grade, the first starts at 0 and the last ends at MaxInt64', () => {
  // mutation_test.go TestStandardizeClusterResourceModels: "sort models", "start with 0", "end with MaxInt64".
  const sorted = admitted(
    cluster({
      syncMode: 'Push',
      resourceModels: [
        { grade: 2, ranges: [range('cpu', '2', MAX_INT64)] },
        { grade: 1, ranges: [range('cpu', '0', '2')] },
      ],
    }),
  ).spec.resourceModels;
  assert.equal(sorted, [
    { grade: 1, ranges: [range('cpu', '0', '2')] },
    { grade: 2, ranges: [range('cpu', '2', MAX_INT64)] },
  ]);
  const startsAt0 = admitted(
    cluster({ syncMode: 'Push', resourceModels: [{ grade: 1, ranges: [range('cpu', '1', MAX_INT64)] }] }),
  ).spec.resourceModels;
  assert.equal(startsAt0, [{ grade: 1, ranges: [range('cpu', '0', MAX_INT64)] }]);
  const endsOpen = admitted(
    cluster({ syncMode: 'Push', resourceModels: [{ grade: 1, ranges: [range('cpu', '0', '2')] }] }),
  ).spec.resourceModels;
  assert.equal(endsOpen, [{ grade: 1, ranges: [range('cpu', '0', MAX_INT64)] }]);
});

test("a grade, range name or bound left out of a resource model is Go's zero value, as the schemaless API server decodes it", () => {
  // Cluster is served by karmada-aggregated-apiserver, which has no OpenAPI schema to require these fields.
  const open = admitted(
    cluster({
      syncMode: 'Push',
      resourceModels: [{ grade: 1, ranges: [{ name: 'cpu', min: '2' }] }, { ranges: [{ name: 'cpu', max: '2' }] }],
    }),
  ).spec.resourceModels;
  assert.equal(open, [
    { grade: 0, ranges: [range('cpu', '0', '2')] },
    { grade: 1, ranges: [range('cpu', '2', MAX_INT64)] },
  ]);
  assert.equal(admitted(cluster({ syncMode: 'Push', resourceModels: [{ grade: 0 }] })).spec.resourceModels, [
    { grade: 0, ranges: [] },
  ]);
  assert.equal(
    admitted(cluster({ syncMode: 'Push', resourceModels: [{ grade: 0, ranges: [{ min: '0', max: '1' }] }] })).spec
      .resourceModels,
    [{ grade: 0, ranges: [range('', '0', MAX_INT64)] }],
  );
  // The zero values are then held to the same rules: two grades 0, or a middle grade ending at 0.
  assert.ok(refused(cluster({ syncMode: 'Push', resourceModels: [{ ranges: [] }, { ranges: [] }] })));
  assert.ok(
    refused(
      cluster({
        syncMode: 'Push',
        resourceModels: [
          { grade: 0, ranges: [range('cpu', '0', '1')] },
          { grade: 1, ranges: [{ name: 'cpu', min: '1' }] },
          { grade: 2, ranges: [range('cpu', '2', MAX_INT64)] },
        ],
      }),
    ),
  );
});

test('a Cluster without resource models gets the nine default grades of cpu and memory', () => {
  // mutation_test.go TestSetDefaultClusterResourceModels.
  const bounds: [string, string][] = [
    ['0', '0'],
    ['1', '4Gi'],
    ['2', '16Gi'],
    ['4', '32Gi'],
    ['8', '64Gi'],
    ['16', '128Gi'],
    ['32', '256Gi'],
    ['64', '512Gi'],
    ['128', '1Ti'],
  ];
  const want = bounds.map(([cpu, memory], grade) => ({
    grade,
    ranges: [
      range('cpu', cpu, bounds[grade + 1]?.[0] ?? MAX_INT64),
      range('memory', memory, bounds[grade + 1]?.[1] ?? MAX_INT64),
    ],
  }));
  assert.equal(admitted(cluster({ syncMode: 'Push' })).spec.resourceModels, want);
});

test.run();
