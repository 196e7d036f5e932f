import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SourceUnit } from '../../src/units/detectUnits.ts';
import { toolProblem } from '../../src/units/toolProblem.ts';
import type { ToolBinary } from '../../src/units/unitTools.ts';

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

test('a template error stays at the template file and line Helm names', () => {
  const p = toolProblem(
    CHART,
    HELM,
    'Error: parse error at (blog/templates/deployment.yaml:12): unexpected "}" in operand\n',
  );
  assert.equal([p.file, p.line], ['apps/blog/templates/deployment.yaml', 12]);
});

test.run();
