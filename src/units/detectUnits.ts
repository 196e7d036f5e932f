import { compareProblems, type Problem } from '../errors/problem.ts';
import type { ParsedKustomization } from './parseKustomization.ts';
import { chartDependencyCopies, type CopiedChart, type LocalChartDependency } from './chartDependencies.ts';

export type UnitTool = 'helm' | 'kustomize';

/** A folder rendered by a tool: its outputs are resource templates, its files are never read as manifests. */
export interface SourceUnit {
  /** The folder, repo-relative, no trailing slash ('' for the repository's root). */
  dir: string;
  tool: UnitTool;
  /** The file that makes the folder a unit (Chart.yaml, kustomization.yaml…): the unit's name in the output index. */
  marker: string;
  /** What the tool reads, folders ending in '/', files as they are: the unit's folder first, then the bases its kustomization names (transitively) or a chart's value files outside its folder. */
  inputs: string[];
  /** The kustomization folders its build reads besides its own (bases and components, named or named by those). */
  bases?: string[];
  /** Problems of its kustomizations (remote bases, paths outside the commit): the unit is not run while it has any. */
  problems: Problem[];
  /** A chart's `file://` dependencies, copied into its `charts/` for the run (their folders are inputs too). */
  copiedCharts?: CopiedChart[];
}

export interface UnitLayout {
  units: SourceUnit[];
  /** Folders holding a chart or a kustomization, and folders a kustomization names, each ending in '/'. */
  inputDirs: string[];
  /** Single files read outside those folders: a chart's value files elsewhere in the repository. */
  inputFiles: string[];
  /** Files outside the units' folders whose change can change the layout: value files named, taken or refused. */
  watchedFiles?: string[];
  /** Value file patterns reaching outside their chart (valueFileGlobs.ts): a file they match added or removed changes the layout. */
  watchedGlobs?: string[];
}

export const HELM_MARKERS = ['Chart.yaml'] as const;
/** A unit's options file (unitOptions.ts UNIT_OPTIONS_FILE): its presence also keeps a base a unit. */
const OPTIONS_FILE = 'flotilla-unit.yaml';
/** The names kustomize accepts (konfig.RecognizedKustomizationFileNames), in its order of preference. */
export const KUSTOMIZE_MARKERS = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export function markerTool(name: string): UnitTool | undefined {
  if ((KUSTOMIZE_MARKERS as readonly string[]).includes(name)) return 'kustomize';
  if ((HELM_MARKERS as readonly string[]).includes(name)) return 'helm';
  return undefined;
}

/** Whether a path is a unit's marker or options file: a change to it can make a folder a unit, or stop it being one. */
export function isUnitFile(path: string): boolean {
  const name = baseName(path);
  return markerTool(name) !== undefined || name === OPTIONS_FILE;
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const asDir = (dir: string) => `${dir}/`;

/** `dir` joined with a relative path, normalised; undefined when it climbs out of the repository. */
export function resolveRelative(dir: string, relative: string): string | undefined {
  const out = dir === '' ? [] : dir.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * The units of a commit, as Argo CD detects them (pure): a folder holding a kustomization is a Kustomize unit, one
 * holding Chart.yaml a Helm unit (a folder with both is Kustomize's, as in Argo CD). A chart inside a chart is a
 * subchart, part of the outer one; a kustomization another one names (a base, a component) is an input of the units
 * naming it, not a unit of its own, so an overlay and its base never output the same objects twice, unless its folder
 * holds flotilla-unit.yaml: an explicit unit stays one, so an overlay cannot silently take its objects over.
 * `references` gives each kustomization's parsed references (parseKustomization), `valueFiles` a chart's value files
 * outside its folder and their problems (helmValueFiles.ts).
 */
export function detectUnits(
  paths: readonly string[],
  references: (marker: string) => Pick<ParsedKustomization, 'references' | 'problems' | 'component'>,
  included: (marker: string) => boolean = () => true,
  valueFiles: (chartDir: string) => {
    files: string[];
    problems: Problem[];
    watched: string[];
    watchedGlobs?: string[];
  } = () => ({
    files: [],
    problems: [],
    watched: [],
  }),
  chartDependencies: (chartDir: string) => readonly LocalChartDependency[] = () => [],
  chartVersion: (chartDir: string) => string | undefined = () => undefined,
): UnitLayout {
  const candidates = new Map<string, { tool: UnitTool; marker: string }>();
  for (const path of paths) {
    const tool = markerTool(baseName(path));
    // A kustomization or chart at the root would make every file of the repository, policies too, its input.
    if (!tool || !path.includes('/') || !included(path)) continue;
    const dir = dirOf(path);
    const had = candidates.get(dir);
    if (had?.tool === 'kustomize' && (tool === 'helm' || rank(had.marker) < rank(path))) continue;
    candidates.set(dir, { tool, marker: path });
  }
  const isDir = folderTest(paths);
  const files = new Set(paths);
  const chartDirs = [...candidates].filter(([, c]) => c.tool === 'helm').map(([dir]) => dir);
  const insideChart = (dir: string) => chartDirs.some((chart) => chart !== dir && asDir(dir).startsWith(asDir(chart)));

  // Each kustomization's direct inputs, resolved in the commit; problems for what is not there.
  const direct = new Map<
    string,
    { dirs: string[]; nested: string[]; files: string[]; problems: Problem[]; component: boolean }
  >();
  for (const [dir, c] of candidates) {
    if (c.tool !== 'kustomize' || insideChart(dir)) continue;
    const parsed = references(c.marker);
    const out = {
      dirs: [] as string[],
      nested: [] as string[],
      files: [] as string[],
      problems: [...parsed.problems],
      component: parsed.component === true,
    };
    for (const ref of parsed.references) {
      const resolved = resolveRelative(dir, ref.path);
      const problem = (message: string, fix: string) =>
        out.problems.push({
          file: ref.file ?? c.marker,
          line: ref.line,
          column: ref.column,
          code: 'INVALID_VALUE',
          severity: 'error',
          message,
          fix,
        });
      if (resolved === undefined) {
        problem(
          `${ref.path} is outside the repository`,
          'name a path inside the repository: a render reads only the commit',
        );
        continue;
      }
      const exists = isDir(resolved) || files.has(resolved);
      // Inside the unit's own folder: copied with it. A kustomization there (a base, a Component) is an input of this
      // one, not a unit of its own: built alone, a Component or a half of an application would fail or duplicate.
      if (exists && (resolved === dir || resolved.startsWith(asDir(dir)))) {
        if (resolved !== dir && isDir(resolved) && candidates.get(resolved)?.tool === 'kustomize')
          out.nested.push(resolved);
        // A file of a base folder named one by one (minio operator's resources/ names base/*.yaml, base/ has its own
        // kustomization): built alone, that base would output the same objects again.
        if (!isDir(resolved))
          for (let up = dirOf(resolved); up !== dir && up.startsWith(asDir(dir)); up = dirOf(up))
            if (candidates.get(up)?.tool === 'kustomize') out.nested.push(up);
        continue;
      }
      // Outside it, kustomize builds only another kustomization's folder and reads no file (its load restrictor:
      // "security; file ... is not in or below ..."). Anything else named there would fail the build, and must not
      // count as the unit's input either: an input is no manifest, so a pull request naming ../../policies or a
      // policy file would take other teams' policies out of the commit.
      if (isDir(resolved) && ref.folderAllowed && candidates.get(resolved)?.tool === 'kustomize')
        out.dirs.push(resolved);
      else if (exists)
        problem(
          isDir(resolved)
            ? `${ref.path} is a folder without a kustomization: kustomize builds only a kustomization's folder`
            : `${ref.path} is outside ${dir}: kustomize reads only files in or below the kustomization's folder`,
          isDir(resolved)
            ? `add a kustomization to ${resolved}, or name its files from one there`
            : `move the file into ${dir}, or name it from a kustomization in its own folder`,
        );
      else
        problem(
          ref.folderAllowed
            ? `${ref.path} is not in this commit (kustomize would try it as a remote base, over the network)`
            : `${ref.path} is not in this commit`,
          `commit ${resolved} or correct the path`,
        );
    }
    direct.set(dir, out);
  }

  const referenced = new Set<string>();
  // A Component builds into the kustomizations naming it; alone it is no application (metrics-server's autoscale and
  // high-availability Components patch a Deployment they are not given).
  const components = new Set([...direct].filter(([, d]) => d.component).map(([dir]) => dir));
  for (const [dir, d] of direct)
    for (const target of [...d.dirs, ...d.nested]) if (target !== dir) referenced.add(target);

  const vendored = vendoredCharts(paths);
  const copiedDirs = new Set<string>();
  const units: SourceUnit[] = [];
  const helmInputFiles = new Set<string>();
  const watchedFiles = new Set<string>();
  const watchedGlobs = new Set<string>();
  for (const [dir, c] of candidates) {
    if (c.tool === 'helm' && insideChart(dir)) continue;
    // A base is an input of the overlays naming it, unless its own options file says "render me": then it renders
    // too, and what it and an overlay both output is a DUPLICATE_OBJECT naming both.
    if (
      c.tool === 'kustomize' &&
      (insideChart(dir) || components.has(dir) || (referenced.has(dir) && !files.has(`${dir}/${OPTIONS_FILE}`)))
    )
      continue;
    const inputs = [asDir(dir)];
    const problems: Problem[] = [];
    let copiedCharts: CopiedChart[] = [];
    if (c.tool === 'helm') {
      // As Argo CD runs `helm dependency build` when charts/ lacks a dependency: a file:// one is read from the commit.
      const deps = chartDependencyCopies(
        dir,
        chartDependencies(dir),
        (d) => files.has(`${d}/Chart.yaml`),
        files,
        (name) =>
          files.has(`${dir}/charts/${name}/Chart.yaml`) ||
          (vendored.get(`${dir}/charts`)?.some((t) => t.startsWith(`${name}-`)) ?? false),
        resolveRelative,
        chartVersion,
      );
      copiedCharts = deps.copies;
      problems.push(...deps.problems);
      for (const copy of copiedCharts) {
        inputs.push(asDir(copy.from));
        copiedDirs.add(asDir(copy.from));
      }
      const values = valueFiles(dir);
      inputs.push(...values.files);
      problems.push(...values.problems);
      for (const f of values.files) helmInputFiles.add(f);
      for (const f of values.watched) watchedFiles.add(f);
      for (const g of values.watchedGlobs ?? []) watchedGlobs.add(g);
    }
    const bases: string[] = [];
    if (c.tool === 'kustomize') {
      const seen = new Set<string>([dir]);
      const queue = [dir];
      while (queue.length > 0) {
        const d = direct.get(queue.shift()!);
        if (!d) continue;
        problems.push(...d.problems);
        for (const f of d.files) inputs.push(f);
        // A base inside the folder is built too, and what it names outside (../../../shared/common from
        // apps/prod/base) is read by this build as much as what the unit's own kustomization names.
        for (const target of [...d.dirs, ...d.nested]) {
          if (seen.has(target)) continue;
          seen.add(target);
          bases.push(target);
          inputs.push(asDir(target));
          queue.push(target);
        }
      }
    }
    units.push({
      dir,
      tool: c.tool,
      marker: c.marker,
      inputs: minimalInputs(inputs),
      problems: dedupe(problems).sort(compareProblems),
      ...(bases.length > 0 ? { bases: bases.sort() } : {}),
      ...(copiedCharts.length > 0 ? { copiedCharts } : {}),
    });
  }
  units.sort((a, b) => (a.marker < b.marker ? -1 : a.marker > b.marker ? 1 : 0));
  const inputDirs = new Set<string>();
  const inputFiles = new Set<string>(helmInputFiles);
  for (const dir of candidates.keys()) inputDirs.add(asDir(dir));
  for (const dir of copiedDirs) inputDirs.add(dir);
  for (const d of direct.values()) {
    for (const dir of d.dirs) inputDirs.add(asDir(dir));
    for (const f of d.files) inputFiles.add(f);
  }
  return {
    units,
    inputDirs: [...inputDirs].sort(),
    inputFiles: [...inputFiles].sort(),
    ...(watchedFiles.size > 0 ? { watchedFiles: [...watchedFiles].sort() } : {}),
    ...(watchedGlobs.size > 0 ? { watchedGlobs: [...watchedGlobs].sort() } : {}),
  };
}

function rank(marker: string): number {
  return (KUSTOMIZE_MARKERS as readonly string[]).indexOf(baseName(marker));
}

/** The packed charts (`.tgz`) of each `charts/` folder, by that folder: `helm dependency build`'s vendored dependencies. */
function vendoredCharts(paths: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of paths) {
    if (!p.endsWith('.tgz')) continue;
    const dir = dirOf(p);
    if (baseName(dir) !== 'charts') continue;
    out.set(dir, [...(out.get(dir) ?? []), baseName(p)]);
  }
  return out;
}

/** Whether a path is a folder of the commit: some file is below it. */
function folderTest(paths: readonly string[]): (path: string) => boolean {
  const dirs = new Set<string>(['']);
  for (const p of paths) {
    let dir = dirOf(p);
    while (dir !== '' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = dirOf(dir);
    }
  }
  return (path) => dirs.has(path);
}

/** Inputs without those a folder already holds, the unit's own folder first. */
function minimalInputs(inputs: string[]): string[] {
  const [own, ...rest] = inputs;
  const out = [own!];
  for (const p of [...new Set(rest)].sort()) if (!out.some((d) => d.endsWith('/') && p.startsWith(d))) out.push(p);
  return out;
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.column}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a config file is one of a unit's inputs (never read as a manifest itself). */
export function isUnitInput(layout: Pick<UnitLayout, 'inputDirs' | 'inputFiles'>, path: string): boolean {
  return layout.inputDirs.some((dir) => path.startsWith(dir)) || layout.inputFiles.includes(path);
}

/** The units that read a path (a file of their folder, of a base, or a file their kustomization names). */
export function unitsReading(units: readonly SourceUnit[], path: string): SourceUnit[] {
  return units.filter((u) => u.inputs.some((input) => (input.endsWith('/') ? path.startsWith(input) : path === input)));
}
