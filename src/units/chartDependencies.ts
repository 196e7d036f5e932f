import type { Problem, SourceSpan } from '../errors/problem.ts';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { goString } from './chartLock.ts';
import { satisfiesChartVersion } from './chartVersionConstraint.ts';

/** A `repository: file://…` dependency of a Chart.yaml (or Chart.lock), where it is written. */
export interface LocalChartDependency {
  name: string;
  /** As written after `file://`. */
  path: string;
  /** Its `version` constraint, undefined when it has none. */
  version?: string;
  /** The version the chart's Chart.lock pins it at: with a lock, helm dependency build checks that one. */
  locked?: string;
  /** Where the chart's Chart.lock digest disagrees with its Chart.yaml (chartLock.ts): helm dependency build stops there. */
  staleLock?: SourceSpan;
  /** The file naming it and the line of its `repository`. */
  file: string;
  line: number;
  column: number;
}

/** A chart folder of the commit copied into a chart's `charts/`, as `helm dependency build` would vendor it. */
export interface CopiedChart {
  /** The dependency's folder, repo-relative. */
  from: string;
  /** Where helm finds it, relative to the unit's folder: `charts/<name>`, `charts/<name>/charts/<sub>`… */
  to: string;
}

const FILE_SCHEME = 'file://';
const MAX_CONSTRAINT_LENGTH = 256;

/**
 * The `file://` dependencies a Chart.yaml or Chart.lock declares (pure). Others (an https or oci repository, or
 * none) are left to the chart's `charts/`, where a render finds them vendored or names them missing.
 */
export function localChartDependencies(file: string, text: string): LocalChartDependency[] {
  const lines = new LineCounter();
  let deps: unknown;
  try {
    deps = parseDocument(text, { ...GO_YAML_PARSE_OPTIONS, lineCounter: lines }).get('dependencies', true);
  } catch {
    return [];
  }
  // One that does not parse is left to helm to report.
  if (!isSeq(deps)) return [];
  const out: LocalChartDependency[] = [];
  for (const item of deps.items) {
    if (!isMap(item)) continue;
    const name = item.get('name');
    const version = item.get('version');
    const repository = item.get('repository', true);
    const value = (repository as { value?: unknown } | undefined)?.value;
    if (typeof name !== 'string' || typeof value !== 'string' || !value.startsWith(FILE_SCHEME)) continue;
    const at = lines.linePos((repository as { range?: [number, number, number] }).range?.[0] ?? 0);
    out.push({
      name,
      path: value.slice(FILE_SCHEME.length),
      ...(typeof version === 'string' || typeof version === 'number' ? { version: goString(version) } : {}),
      file,
      line: at.line,
      column: at.col,
    });
  }
  return out;
}

/** A Chart.yaml's `version` (pure); undefined when it has none or does not parse. */
export function chartVersionOf(chartYaml: string): string | undefined {
  try {
    const version = parseDocument(chartYaml, GO_YAML_PARSE_OPTIONS).get('version');
    return typeof version === 'string' || typeof version === 'number' ? goString(version) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The chart folders a chart's `file://` dependencies copy into its `charts/` (pure), as `helm dependency build` packs
 * them: each resolved against the chart's folder, and refused at its line when it leaves the repository, is no chart
 * folder of the commit (a symbolic link is not one: a render copies files, not links), holds the chart itself, or
 * has a version its constraint refuses (as helm refuses it, chartVersionConstraint.ts). A
 * dependency already vendored under `charts/` (a folder or a packed `<name>-<version>.tgz`) is helm's as it is. Only the
 * chart's own dependencies are copied, each with its folder's vendored `charts/`: helm (and Argo CD, which runs it)
 * resolves no `file://` dependency of a dependency, so one rendered here must render there too.
 */
export function chartDependencyCopies(
  chartDir: string,
  dependencies: readonly LocalChartDependency[],
  isChart: (dir: string) => boolean,
  files: { has(path: string): boolean },
  vendored: (name: string) => boolean,
  /** detectUnits.ts resolveRelative: a path joined to a folder, undefined when it climbs out of the repository. */
  resolveRelative: (dir: string, relative: string) => string | undefined,
  /** The `version` of a chart folder's Chart.yaml. */
  chartVersion: (dir: string) => string | undefined = () => undefined,
): { copies: CopiedChart[]; problems: Problem[] } {
  const copies: CopiedChart[] = [];
  const problems: Problem[] = [];
  for (const dep of dependencies) {
    if (vendored(dep.name)) continue;
    const resolved = dep.path.startsWith('/') ? undefined : resolveRelative(chartDir, dep.path);
    const problem = (message: string, fix: string) =>
      problems.push({
        file: dep.file,
        line: dep.line,
        column: dep.column,
        code: 'INVALID_VALUE',
        severity: 'error',
        message,
        fix,
      });
    if (resolved === undefined || resolved === '') {
      problem(
        `file://${dep.path} is outside the repository`,
        'name a chart folder inside the repository: a render reads only the commit',
      );
    } else if (!isChart(resolved)) {
      problem(
        files.has(resolved)
          ? `file://${dep.path} is a file or symbolic link, not a chart folder: a render copies files out of the commit, not links`
          : `file://${dep.path} is not a chart folder of this commit (no ${resolved}/Chart.yaml)`,
        `commit the chart at ${resolved}, or correct the repository path`,
      );
    } else if (`${chartDir}/`.startsWith(`${resolved}/`)) {
      problem(
        `file://${dep.path} is the chart's own folder or one holding it: a chart cannot be its own dependency`,
        'name the folder of another chart',
      );
    } else {
      // helm dependency build packs a file:// chart only when its version satisfies the constraint.
      const version = chartVersion(resolved) ?? '';
      const constraint = dep.locked ?? dep.version ?? '';
      // Matching a constraint costs time quadratic in its runs of spaces or digits: a committed one of 400 KB would
      // hold the render for minutes. Real constraints are a few conditions.
      if (constraint.length > MAX_CONSTRAINT_LENGTH) {
        problem(
          `dependency "${dep.name}" has a version constraint of ${constraint.length} characters, over the ${MAX_CONSTRAINT_LENGTH} a render reads`,
          'write the constraint as the few conditions it means (">=1.2.0 <2.0.0", "^1.2")',
        );
        continue;
      }
      const fits = satisfiesChartVersion(constraint, version);
      if (dep.staleLock)
        problems.push({
          ...dep.staleLock,
          code: 'INVALID_VALUE',
          severity: 'error',
          message: `the lock file (Chart.lock) is out of sync with the dependencies file (Chart.yaml): helm dependency build stops before it copies ${dep.name}`,
          fix: `run \`helm dependency update ${chartDir}\` and commit its Chart.lock, or delete the lock`,
        });
      else if (fits === 'invalid')
        problem(
          `dependency "${dep.name}" has an invalid version/constraint format: "${dep.version ?? ''}" (helm dependency build refuses it)`,
          `give it a version constraint, such as the version of ${resolved}/Chart.yaml (${version || '?'})`,
        );
      else if (!fits && dep.locked !== undefined)
        problem(
          `${resolved} is version ${version || '(none)'}, but ${chartDir}/Chart.lock pins ${dep.name} at ${dep.locked} (helm dependency build: can't get a valid version for dependency ${dep.name})`,
          `run \`helm dependency update ${chartDir}\` and commit its Chart.lock, or delete the lock`,
        );
      else if (!fits)
        problem(
          `${resolved} is version ${version || '(none)'}, which does not satisfy the constraint "${dep.version}" (helm dependency build: can't get a valid version for dependency ${dep.name})`,
          `change the version constraint, or the version in ${resolved}/Chart.yaml`,
        );
      else copies.push({ from: resolved, to: `charts/${dep.name}` });
    }
  }
  return { copies, problems };
}
