import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SourceUnit } from '../../src/units/detectUnits.ts';
import { toolProblem } from '../../src/units/toolProblem.ts';
import type { ToolBinary } from '../../src/units/unitTools.ts';
import { DEFAULT_TOOL_LIMITS, runTool } from '../../src/units/runTool.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const HELM: ToolBinary = { tool: 'helm', file: '/bin/helm', prefix: [], version: 'helm v3.17.2' };
const CHART: SourceUnit = {
  dir: 'apps/blog',
  tool: 'helm',
  marker: 'apps/blog/Chart.yaml',
  inputs: ['apps/blog/'],
  problems: [],
};
// A chart shaped like argocd-example-apps' helm-dependency: a dependency on a chart repository, not vendored.
const CHART_YAML = `apiVersion: v2
name: blog
version: 0.1.0
dependencies:
  - name: cache
    version: 1.2.0
    repository: https://charts.example.com/stable
  - name: "wordpress"
    version: 9.0.3
    repository: https://charts.example.com/stable
`;
const STDERR =
  'Error: An error occurred while checking for chart dependencies. You may need to run `helm dependency build` to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: wordpress\n';

test('a dependency missing from charts/ is placed at its name in Chart.yaml, with the vendoring fix', () => {
  const p = toolProblem(CHART, HELM, STDERR, CHART_YAML);
  assert.equal([p.file, p.line, p.column, p.code], ['apps/blog/Chart.yaml', 8, 5, 'UNIT_FAILED']);
  assert.match(p.message, /depends on wordpress, which is not vendored under apps\/blog\/charts\//);
  assert.match(
    p.fix,
    /^run `helm dependency build apps\/blog` where the chart repository is reachable and commit apps\/blog\/charts\//,
  );
  // Without Chart.yaml at hand the error stays on the chart's first line, with the same fix.
  const bare = toolProblem(CHART, HELM, STDERR);
  assert.equal([bare.file, bare.line, bare.column], ['apps/blog/Chart.yaml', 1, 1]);
  assert.match(bare.fix, /helm dependency build apps\/blog/);
});

test("a dependency a chart lists in requirements.yaml is placed there, helm's place for them over Chart.yaml's", () => {
  const requirements =
    'dependencies:\n- name: "loki"\n  repository: https://grafana.github.io/helm-charts\n  version: ^2.15.2\n';
  const p = toolProblem(
    CHART,
    HELM,
    STDERR.replace('wordpress', 'loki'),
    'apiVersion: v1\nname: blog\nversion: 0.1.0\n',
    undefined,
    undefined,
    { texts: new Map([['apps/blog/requirements.yaml', requirements]]), valueFiles: [] },
  );
  assert.equal([p.file, p.line, p.column], ['apps/blog/requirements.yaml', 2, 3]);
  assert.match(p.fix, /\(and requirements\.lock\), or remove the dependency from apps\/blog\/requirements\.yaml;/);
});

test('a template error stays at the template file and line Helm names', () => {
  const p = toolProblem(
    CHART,
    HELM,
    'Error: parse error at (blog/templates/deployment.yaml:12): unexpected "}" in operand\n',
  );
  assert.equal([p.file, p.line], ['apps/blog/templates/deployment.yaml', 12]);
});

test("a failing required value says to give the chart its values, without Helm's --debug hint", () => {
  const p = toolProblem(
    CHART,
    HELM,
    'Error: execution error at (blog/templates/secret.yaml:6:15): db.password is required\n\nUse --debug flag to render out invalid YAML\n',
  );
  assert.equal([p.file, p.line, p.column], ['apps/blog/templates/secret.yaml', 6, 15]);
  assert.is(
    p.message,
    'helm v3.17.2 failed for apps/blog: execution error at (apps/blog/templates/secret.yaml:6:15): db.password is required',
  );
  assert.match(
    p.fix,
    /^give the chart the values it requires \(its values\.yaml, or values and parameters in apps\/blog\/flotilla-unit\.yaml\)/,
  );
});

// A template including itself: Helm repeats the clause until its nesting limit, then names the cause.
const clause = 'template: blog/templates/cm.yaml:1:26: executing "blog.x" at <include "blog.x" .>';
const LOOP = `Error: template: blog/templates/cm.yaml:7:8: executing "blog/templates/cm.yaml" at <include "blog.x" .>: error calling include: ${`${clause}: error calling include: `.repeat(1000)}rendering template has a nested reference name: blog.x: unable to execute template\n\nUse --debug flag to render out invalid YAML\n`;

test('an include that loops is its first clause and its cause, named by the folder', () => {
  const p = toolProblem(CHART, HELM, LOOP);
  assert.equal([p.file, p.line, p.column], ['apps/blog/templates/cm.yaml', 7, 8]);
  assert.is(
    p.message,
    'helm v3.17.2 failed for apps/blog: template: apps/blog/templates/cm.yaml:7:8: executing "apps/blog/templates/cm.yaml" at <include "blog.x" .>: … rendering template has a nested reference name: blog.x: unable to execute template',
  );
});

test("a tool's long error keeps its start and its end", async () => {
  const run = await runTool(
    process.execPath,
    ['-e', `process.stderr.write(${JSON.stringify(LOOP)}); process.exit(1)`],
    { cwd: process.cwd(), env: {}, limits: DEFAULT_TOOL_LIMITS },
  );
  assert.is(run.code, 1);
  assert.ok(LOOP.length > 100_000 && run.stderr.length < 70_000, String(run.stderr.length));
  assert.ok(run.stderr.startsWith('Error: template: blog/templates/cm.yaml:7:8'));
  assert.match(
    toolProblem(CHART, HELM, run.stderr).message,
    /… rendering template has a nested reference name: blog\.x/,
  );
});

test("a kustomize patch that does not parse is placed at the patch file, with kustomize's cause and not the configuration it quotes", () => {
  const overlay: SourceUnit = {
    dir: 'apps/production',
    tool: 'kustomize',
    marker: 'apps/production/kustomization.yaml',
    inputs: ['apps/production/', 'apps/base/podinfo/'],
    problems: [],
  };
  const kustomize: ToolBinary = {
    tool: 'kustomize',
    file: '/bin/kubectl',
    prefix: ['kustomize'],
    version: 'kustomize v5.5.0',
  };
  const p = toolProblem(
    overlay,
    kustomize,
    'error: trouble configuring builtin PatchTransformer with config: `\npath: podinfo-values.yaml\ntarget:\n  kind: HelmRelease\n`: unable to parse SM or JSON patch from [path: "podinfo-values.yaml"]\n',
  );
  assert.equal([p.file, p.line], ['apps/production/podinfo-values.yaml', 1]);
  assert.is(
    p.message,
    'kustomize v5.5.0 failed for apps/production: error: trouble configuring builtin PatchTransformer: unable to parse SM or JSON patch from [path: "podinfo-values.yaml"]',
  );
  assert.match(p.fix, /^correct apps\/production\/podinfo-values\.yaml and commit/);
});

test("a chart whose kubeVersion refuses the version rendered for is placed at Chart.yaml's kubeVersion, with the option to set", () => {
  const p = toolProblem(
    CHART,
    HELM,
    'Error: chart requires kubeVersion: >=1.25.0-0 which is incompatible with Kubernetes v1.24.0\n\nUse --debug flag to render out invalid YAML\n',
    'apiVersion: v2\nname: blog\nversion: 0.1.0\nkubeVersion: ">=1.25.0-0"\n',
  );
  assert.equal([p.file, p.line, p.column], ['apps/blog/Chart.yaml', 4, 1]);
  assert.is(
    p.message,
    'helm v3.17.2 failed for apps/blog: the chart requires kubeVersion >=1.25.0-0, and it renders for Kubernetes v1.24.0',
  );
  assert.match(p.fix, /^set spec\.kubeVersion in apps\/blog\/flotilla-unit\.yaml to a version the chart supports/);
});

test("values that fail the chart's values.schema.json are the unit options' to correct, not the chart's", () => {
  const stderr =
    'Error: values don\'t meet the specifications of the schema(s) in the following chart(s):\nblog:\n- policy: policy must be one of the following: "sync", "upsert-only"\n- replicas: Invalid type. Expected: integer, given: string\n\n';
  const p = toolProblem(CHART, HELM, stderr, CHART_YAML, 'apps/blog/flotilla-unit.yaml');
  assert.equal([p.file, p.line, p.code], ['apps/blog/flotilla-unit.yaml', 1, 'UNIT_FAILED']);
  assert.match(
    p.message,
    'do not meet its values.schema.json: policy: policy must be one of the following: "sync", "upsert-only"; replicas: Invalid type',
  );
  assert.match(p.fix, /^correct the values in apps\/blog\/flotilla-unit.yaml/);
  // Without options the chart's own values.yaml is what fails its schema.
  assert.is(toolProblem(CHART, HELM, stderr, CHART_YAML).file, 'apps/blog/values.yaml');
});

test('a schema that refers to a URL is named as what a render cannot fetch, not as values to correct', () => {
  // Argo CD's reposerver testdata broken-schema-verification, run as a render runs helm: through a proxy that refuses.
  const stderr =
    'Error: values don\'t meet the specifications of the schema(s) in the following chart(s):\nblog:\nGet "http://doesnotexist.example.com/": proxyconnect tcp: dial tcp 127.0.0.1:9: connect: connection refused\n';
  const p = toolProblem(CHART, HELM, stderr, CHART_YAML, 'apps/blog/flotilla-unit.yaml');
  assert.equal([p.file, p.line, p.code], ['apps/blog/values.schema.json', 1, 'UNIT_FAILED']);
  assert.match(p.message, 'refers to http://doesnotexist.example.com/, which a render cannot fetch');
  assert.match(p.message, 'connection refused');
  assert.match(
    p.fix,
    /^copy the definitions http:\/\/doesnotexist\.example\.com\/ holds into apps\/blog\/values\.schema\.json/,
  );
  assert.match(p.fix, 'spec.skipSchemaValidation: true');
  // A subchart's schema is named in its folder.
  const sub = stderr.replace('blog:', 'cache:');
  assert.is(toolProblem(CHART, HELM, sub, CHART_YAML).file, 'apps/blog/charts/cache/values.schema.json');
});

test("values the chart's schema refuses are placed at the line that sets them last: a parameter, inline values, a value file, values.yaml", () => {
  const stderr =
    "Error: values don't meet the specifications of the schema(s) in the following chart(s):\nblog:\n- replicas: Invalid type. Expected: integer, given: string\ncache:\n- (root): Additional property evict is not allowed\n\n";
  const options = 'apps/blog/flotilla-unit.yaml';
  const texts = new Map([
    ['apps/blog/values.yaml', 'replicas: 1\ncache:\n  size: 10\n'],
    ['apps/blog/values-prod.yaml', '# production\nreplicas: two\ncache:\n  evict: lru\n'],
    [
      options,
      'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  values: |\n    cache:\n      evict: lfu\n  parameters:\n    - {name: other, value: x}\n',
    ],
  ]);
  const valueFiles = ['apps/blog/values.yaml', 'apps/blog/values-prod.yaml', options];
  const at = (t: Map<string, string>) => {
    const p = toolProblem(CHART, HELM, stderr, CHART_YAML, options, undefined, { texts: t, valueFiles });
    return [p.file, p.line, p.column];
  };
  // The first value refused, in the file of highest precedence that sets it.
  assert.equal(at(texts), ['apps/blog/values-prod.yaml', 2, 1]);
  // A subchart's values are under its name; the options' inline values come after the value files.
  const noReplicas = new Map(texts).set('apps/blog/values-prod.yaml', 'cache:\n  evict: lru\n');
  noReplicas.set('apps/blog/values.yaml', 'cache:\n  size: 10\n');
  assert.equal(at(noReplicas), [options, 6, 7]);
  // --set wins over the rest.
  const set = new Map(texts).set(
    options,
    'spec:\n  valuesObject: {replicas: 2}\n  parameters:\n    - name: replicas\n      value: two\n',
  );
  assert.equal(at(set), [options, 4, 7]);
  // A value no file sets (a required one missing) has no line: the options file, as before.
  assert.equal(at(new Map([[options, 'spec: {}\n']])), [options, 1, 1]);
});

test("a schema's URL that a render cannot fetch is placed at the line naming it", () => {
  const stderr =
    'Error: values don\'t meet the specifications of the schema(s) in the following chart(s):\nblog:\nGet "https://example.com/ext.json": proxyconnect tcp: dial tcp 127.0.0.1:9: connect: connection refused\n';
  const schema =
    '{\n  "type": "object",\n  "properties": {\n    "ext": {"$ref": "https:\\/\\/example.com\\/ext.json"}\n  }\n}\n';
  const texts = new Map([['apps/blog/values.schema.json', schema]]);
  const p = toolProblem(CHART, HELM, stderr, CHART_YAML, undefined, undefined, { texts, valueFiles: [] });
  assert.equal([p.file, p.line, p.column], ['apps/blog/values.schema.json', 4, 22]);
  // Resolved against the schema's $id, no line names it whole.
  const relative = new Map([
    ['apps/blog/values.schema.json', '{"$id": "https://example.com/root.json",\n"$ref": "ext.json"}'],
  ]);
  const q = toolProblem(CHART, HELM, stderr, CHART_YAML, undefined, undefined, { texts: relative, valueFiles: [] });
  assert.equal([q.file, q.line], ['apps/blog/values.schema.json', 1]);
});

test("helm's error leads the message, the warnings it logged before it come after", () => {
  // helm's loader logs `load.go:…: Warning: Dependencies are handled in Chart.yaml…` for a v2 chart with a
  // requirements.yaml (its testdata chart frobnitz.v2.reqs), before its error.
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'web/requirements.yaml': 'dependencies: []\n',
      'web/templates/host.yaml': '{{ fail "web needs a host" }}\n',
    },
    'web',
  );
  const res = spawnSync(process.execPath, [BIN, 'validate', '--repo', r.dir], { encoding: 'utf8' });
  assert.is(res.status, 1, res.stderr);
  assert.match(
    res.stdout,
    /^web\/templates\/host\.yaml:1:3  error  UNIT_FAILED  helm v[\d.]+ failed for web: execution error at \(web\/templates\/host\.yaml:1:3\): web needs a host load\.go:\d+: Warning: Dependencies are handled in Chart\.yaml since apiVersion "v2"/m,
  );
});

test.run();
