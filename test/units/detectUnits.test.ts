import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectUnits, isUnitInput, unitsReading } from '../../src/units/detectUnits.ts';
import { parseKustomization } from '../../src/units/parseKustomization.ts';

const kustomizations = (files: Record<string, string>) => (marker: string) =>
  parseKustomization(marker, files[marker] ?? '');

test('a folder with Chart.yaml or a kustomization is a unit; subcharts and bases named by an overlay are inputs, not units', () => {
  const files: Record<string, string> = {
    'apps/base/kustomization.yaml': 'resources: [release.yaml]\n',
    'apps/staging/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: ../patches/replicas.yaml\n',
    'apps/production/Kustomization': 'resources:\n  - ../base\n',
  };
  const paths = [
    ...Object.keys(files),
    'apps/base/release.yaml',
    'apps/patches/replicas.yaml',
    'charts/web/Chart.yaml',
    'charts/web/values.yaml',
    'charts/web/templates/deployment.yaml',
    'charts/web/charts/redis/Chart.yaml',
    'charts/web/charts/redis/templates/sts.yaml',
    'templates/plain.yaml',
    'kustomization.yaml',
  ];
  const layout = detectUnits(
    paths,
    kustomizations({ ...files, 'kustomization.yaml': 'resources: [templates/plain.yaml]\n' }),
  );
  assert.equal(
    layout.units.map((u) => [u.marker, u.tool, u.inputs, u.problems.length]),
    [
      ['apps/production/Kustomization', 'kustomize', ['apps/production/', 'apps/base/'], 0],
      // kustomize reads no file outside the kustomization's folder: the patch there is a problem, not an input.
      ['apps/staging/kustomization.yaml', 'kustomize', ['apps/staging/', 'apps/base/'], 1],
      ['charts/web/Chart.yaml', 'helm', ['charts/web/'], 0],
    ],
    'a kustomization at the root is no unit: it would swallow the policies',
  );
  assert.ok(isUnitInput(layout, 'apps/base/release.yaml'));
  assert.not.ok(isUnitInput(layout, 'apps/patches/replicas.yaml'));
  assert.ok(isUnitInput(layout, 'charts/web/charts/redis/templates/sts.yaml'));
  assert.not.ok(isUnitInput(layout, 'templates/plain.yaml'));
  assert.equal(
    unitsReading(layout.units, 'apps/base/release.yaml').map((u) => u.dir),
    ['apps/production', 'apps/staging'],
  );
});

test("what a base inside the unit's folder names outside it is the unit's input, as kustomize builds it", () => {
  const files: Record<string, string> = {
    'apps/prod/kustomization.yaml': 'resources: [base]\n',
    'apps/prod/base/kustomization.yaml': 'resources: [../../../shared/common, ../extra.yaml]\n',
    'shared/common/kustomization.yaml': 'resources: [cm.yaml]\n',
  };
  const layout = detectUnits(
    [...Object.keys(files), 'shared/common/cm.yaml', 'apps/prod/extra.yaml'],
    kustomizations(files),
  );
  assert.equal(
    layout.units.map((u) => [u.dir, u.inputs, u.bases, u.problems.map((p) => p.message)]),
    [
      [
        'apps/prod',
        ['apps/prod/', 'shared/common/'],
        ['apps/prod/base', 'shared/common'],
        // The base's own load restrictor: a file outside its folder, even inside the overlay's, is refused.
        ["../extra.yaml is outside apps/prod/base: kustomize reads only files in or below the kustomization's folder"],
      ],
    ],
  );
  assert.equal(
    unitsReading(layout.units, 'shared/common/cm.yaml').map((u) => u.dir),
    ['apps/prod'],
  );
});

test('a kustomization naming something the commit lacks, a path outside the repository or a remote base is a located problem of its units', () => {
  const files = {
    'app/kustomization.yaml': [
      'resources:',
      '  - ../../outside',
      '  - missing.yaml',
      '  - github.com/example/repo//base?ref=v1',
      '  - /etc',
      'configMapGenerator:',
      '  - name: cfg',
      '    files: [key=/etc/passwd]',
      'helmCharts:',
      '  - name: redis',
      '',
    ].join('\n'),
  };
  const layout = detectUnits(Object.keys(files), kustomizations(files));
  assert.equal(
    layout.units[0]!.problems.map((p) => [p.line, p.code, p.message.split(':')[0]]),
    [
      [2, 'INVALID_VALUE', '../../outside is outside the repository'],
      [
        3,
        'INVALID_VALUE',
        'missing.yaml is not in this commit (kustomize would try it as a remote base, over the network)',
      ],
      [4, 'INVALID_VALUE', 'resources names a remote repository (github.com/example/repo//base?ref=v1)'],
      [5, 'INVALID_VALUE', 'resources names a path outside the repository (/etc)'],
      [8, 'INVALID_VALUE', 'configMapGenerator[].files names a path outside the repository (/etc/passwd)'],
      [9, 'INVALID_VALUE', 'helmCharts makes kustomize fetch and inflate Helm charts, which needs the network'],
    ].sort((a, b) => (a[0] as number) - (b[0] as number)),
  );
});

test('a kustomization whose paths are tagged or not text is refused: Go would read them as paths this check never saw', () => {
  // `!!binary` bytes are text to Go's YAML reader: base64 of ../../../../../etc would escape the repository.
  const outside = Buffer.from('../../../../../etc').toString('base64');
  for (const [text, what] of [
    [`resources:\n  - !!binary ${outside}\n  - cm.yaml\n`, 'the tag !!binary'],
    ['resources: !!seq [cm.yaml]\n', 'the tag !!seq'],
    ['resources: [cm.yaml, 12]\n', 'resources names 12, which is not written as a path'],
  ] as const) {
    const parsed = parseKustomization('apps/web/kustomization.yaml', text);
    assert.ok(
      parsed.problems.some((p) => p.message.includes(what)),
      `${text}: ${parsed.problems.map((p) => p.message).join('; ')}`,
    );
    assert.not.ok(parsed.references.some((r) => r.path.includes('etc')));
  }
  assert.equal(parseKustomization('apps/web/kustomization.yaml', 'resources: [!!str cm.yaml]\n').problems, []);
});

test('a folder holding both a kustomization and Chart.yaml is rendered with Kustomize, as Argo CD does', () => {
  const layout = detectUnits(['x/Chart.yaml', 'x/kustomization.yml', 'x/kustomization.yaml'], () => ({
    references: [],
    problems: [],
  }));
  assert.equal(
    layout.units.map((u) => [u.marker, u.tool]),
    [['x/kustomization.yaml', 'kustomize']],
  );
});

test("a kustomization naming a plain folder or a file outside its own folder takes nothing out of the commit's manifests", () => {
  const files = {
    'apps/evil/kustomization.yaml': [
      'resources:',
      '  - ../../policies',
      '  - ../../templates/team-a.yaml',
      'configMapGenerator:',
      '  - name: stolen',
      '    files: [../../policies/prod.yaml]',
      '',
    ].join('\n'),
  };
  const paths = [...Object.keys(files), 'policies/prod.yaml', 'policies/staging.yaml', 'templates/team-a.yaml'];
  const layout = detectUnits(paths, kustomizations(files));
  for (const p of ['policies/prod.yaml', 'policies/staging.yaml', 'templates/team-a.yaml'])
    assert.not.ok(isUnitInput(layout, p), p);
  assert.equal(layout.units[0]!.inputs, ['apps/evil/']);
  assert.equal(
    layout.units[0]!.problems.map((p) => [p.line, p.message.split(':')[0]]),
    [
      [2, '../../policies is a folder without a kustomization'],
      [3, '../../templates/team-a.yaml is outside apps/evil'],
      [6, '../../policies/prod.yaml is outside apps/evil'],
    ],
  );
});

// kustomize's own examples (multibases, wordpress) and microservices-demo's kustomize/ name bases and Components in
// their own folder: built alone, each would duplicate the application unpatched, or fail (a Component patches what it
// is not given).
test("a kustomization's bases and Components inside its own folder are its inputs, not units of their own", () => {
  const files: Record<string, string> = {
    'units/shop/kustomization.yaml': 'resources: [base, dev]\ncomponents: [components/tls]\n',
    'units/shop/base/kustomization.yaml': 'resources: [cm.yaml]\n',
    'units/shop/dev/kustomization.yaml': 'resources: [../base]\nnamePrefix: dev-\n',
    'units/shop/components/tls/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
    'units/other/kustomization.yaml': 'resources: [cm.yaml]\n',
  };
  const layout = detectUnits(
    [...Object.keys(files), 'units/shop/base/cm.yaml', 'units/other/cm.yaml'],
    kustomizations(files),
  );
  assert.equal(
    layout.units.map((u) => [u.marker, u.inputs]),
    [
      ['units/other/kustomization.yaml', ['units/other/']],
      ['units/shop/kustomization.yaml', ['units/shop/']],
    ],
  );
  assert.ok(isUnitInput(layout, 'units/shop/components/tls/kustomization.yaml'));
});

// minio operator's resources/kustomization.yaml names base/namespace.yaml, base/crds/… one by one, while base/ has a
// kustomization of its own.
test('a kustomization naming the files of a base inside its folder one by one makes that base its input, not a unit', () => {
  const files: Record<string, string> = {
    'units/minio/resources/kustomization.yaml': 'resources:\n  - base/namespace.yaml\n  - base/crds/tenant.yaml\n',
    'units/minio/resources/base/kustomization.yaml': 'resources: [namespace.yaml, crds]\n',
    'units/minio/resources/base/crds/kustomization.yaml': 'resources: [tenant.yaml]\n',
    'units/minio/other/kustomization.yaml': 'resources: [cm.yaml]\n',
  };
  const layout = detectUnits(
    [
      ...Object.keys(files),
      'units/minio/resources/base/namespace.yaml',
      'units/minio/resources/base/crds/tenant.yaml',
      'units/minio/other/cm.yaml',
    ],
    kustomizations(files),
  );
  assert.equal(
    layout.units.map((u) => [u.marker, u.inputs]),
    [
      ['units/minio/other/kustomization.yaml', ['units/minio/other/']],
      ['units/minio/resources/kustomization.yaml', ['units/minio/resources/']],
    ],
  );
});

// metrics-server's manifests/ keeps Components no overlay of the commit names (autoscale, high-availability): built
// alone, each patches a Deployment it is not given and fails.
test('a kustomize Component is never a unit of its own, named by an overlay or not', () => {
  const files: Record<string, string> = {
    'units/metrics/base/kustomization.yaml': 'resources: [deployment.yaml]\n',
    'units/metrics/components/autoscale/kustomization.yaml':
      'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches: [{path: patch.yaml}]\n',
  };
  const layout = detectUnits(
    [...Object.keys(files), 'units/metrics/base/deployment.yaml', 'units/metrics/components/autoscale/patch.yaml'],
    kustomizations(files),
  );
  assert.equal(
    layout.units.map((u) => u.marker),
    ['units/metrics/base/kustomization.yaml'],
  );
});

test.run();
