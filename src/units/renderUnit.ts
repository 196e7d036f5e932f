import { createHash } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { GO_YAML_DOCUMENT_OPTIONS, GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { emptyFileObjects, type FileObjects, type UnitOrigin } from '../api/model.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo, type TreeFile } from '../commits/types.ts';
import { parseDocuments, type SourceDocument } from '../documents/parseDocuments.ts';
import {
  OUTSIDE_LOAD_FIX,
  outsideLoadMessage,
  parseKustomization,
  pluginConfigOutsideLoads,
} from './parseKustomization.ts';
import type { KustomizeInputText } from './kustomizeErrorPlaces.ts';
import { withReleaseManagedBy } from './kustomizeManagedBy.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import { markerTool, resolveRelative, type SourceUnit } from './detectUnits.ts';
import { toolProblem, type HelmInputTexts } from './toolProblem.ts';
import { chartArchiveFiles } from './chartArchive.ts';
import { knownPackedChart, readPackedChart, type PackedChart } from './packedCharts.ts';
import { helmIgnoreRules } from './helmIgnore.ts';
import { archivedChartCallWarnings, chartCallWarnings } from './chartCalls.ts';
import { isSchemaInput, schemaFileProblems } from './chartSchemas.ts';
import { helmSkippedHooks } from './syncHooks.ts';
import { resolveValueFile } from './helmValueFiles.ts';
import { expandValueFiles } from './valueFileGlobs.ts';
import { readCachedRun, writeCachedRun } from './unitOutputCache.ts';
import { parseUnitOutput } from './parseUnitOutput.ts';
import { ranOutOfMemory, runTool, DEFAULT_TOOL_LIMITS, type ToolLimits } from './runTool.ts';
import { findToolReport, missingToolFix, type ToolBinary } from './unitTools.ts';
import { applyKustomizeOptions } from './applyKustomizeOptions.ts';
import { helmSetValue } from './helmSetValue.ts';
import { committedLine, debugRendering, renderedErrorLine, yamlParseError } from './yamlErrorLines.ts';
import {
  asksForOrigins,
  knowsOriginAnnotations,
  originsLeaked,
  originsOf,
  withOriginAnnotations,
} from './kustomizeOrigins.ts';
import { originFiles, placeObjects } from './kustomizePlaces.ts';
import { parseUnitOptions, UNIT_OPTIONS_FILE, type KustomizeOptions, type UnitOptions } from './unitOptions.ts';
import { builtInApiKinds } from './builtInApiKinds.ts';
import { subchartFileResolver, type ChartPlace } from './subchartPaths.ts';
import { listUnitFolder, readUnitFiles, UNIT_READ_LIMITS, UnitFileTooLarge } from './readUnitFiles.ts';

/**
 * Bump when the tool is run another way (its flags, its environment) or a run's warnings or failure are worked out another way,
 * so outputs cached before are not reused.
 */
const RUN_RECIPE = 23;

/**
 * A unit rendered from the commit, as the objects of its marker file. Reads only the commit: the unit's folder and
 * the bases and files its kustomization names are copied out of Git's objects into a private temporary folder, and
 * the tool runs there with no network (a dead proxy, no PATH, HOME and Helm's folders inside the temporary one, no
 * plugins), a timeout and an output cap. The output, or the failure the inputs give (an error, the timeout, a cap), is
 * cached by the tool's version and the object ids of the inputs, so a unit runs again only when one of its inputs (or
 * the tool, or a limit it was stopped at) changed. A unit that cannot render is held:
 * unreadable, with the tool's error at the file and line it names.
 */
export async function renderUnit(
  repo: GitRepo,
  tree: string,
  unit: SourceUnit,
  limits: ToolLimits = DEFAULT_TOOL_LIMITS,
): Promise<FileObjects> {
  try {
    return await renderUnitFiles(repo, tree, unit, limits);
  } catch (err) {
    if (!(err instanceof UnitFileTooLarge)) throw err;
    return heldUnit({ dir: unit.dir, tool: unit.tool, marker: unit.marker }, [err.problem]);
  }
}

async function renderUnitFiles(
  repo: GitRepo,
  tree: string,
  unit: SourceUnit,
  limits: ToolLimits,
): Promise<FileObjects> {
  const origin: UnitOrigin = { dir: unit.dir, tool: unit.tool, marker: unit.marker };
  const failed = (problems: Problem[], extra: Partial<UnitOrigin> = {}) => heldUnit({ ...origin, ...extra }, problems);
  if (unit.problems.length > 0) return failed(unit.problems);
  const inputs = await inputOids(repo, tree, unit.inputs);
  const ownTree = inputs.get(unit.inputs[0]!);
  if (!ownTree)
    return failed([
      unitProblem(unit, 'UNIT_FAILED', `${unit.dir} is not a folder of this commit`, 'commit the folder'),
    ]);
  const ownFiles = await listUnitFolder(repo, ownTree, unit.inputs[0]!);
  const optionsOid = ownFiles.get(UNIT_OPTIONS_FILE)?.oid;
  const optionsFile = `${unit.dir}/${UNIT_OPTIONS_FILE}`;
  let options: UnitOptions = unit.tool === 'helm' ? { tool: 'helm', helm: {} } : { tool: 'kustomize', kustomize: {} };
  let optionsDoc: SourceDocument | undefined;
  if (optionsOid) {
    const bytes = (await readUnitFiles(repo, [[optionsFile, optionsOid]])).get(optionsOid)!;
    const parsed = parseDocuments(optionsFile, bytes);
    const read = parseUnitOptions(unit.tool, optionsFile, parsed.documents);
    const problems = [...parsed.problems, ...read.problems];
    if (read.problems.length > 0 || parsed.problems.some((p) => p.severity === 'error'))
      return failed(problems, { optionsFile });
    options = read.options;
    optionsDoc = parsed.documents[0];
  }
  const described = describeOptions(unit, options, optionsOid ? optionsFile : undefined);
  if (options.tool === 'kustomize' && optionsDoc) {
    const refused = await kustomizeOptionProblems(repo, unit, ownFiles, options.kustomize, optionsDoc);
    if (refused.length > 0) return failed(refused, described);
  }
  // The layout refuses a value file the commit lacks at its line; a unit named another way is checked here. Patterns
  // are expanded over the chart's files and the files outside it the layout took as its inputs (valueFileGlobs.ts).
  if (options.tool === 'helm') {
    const written = options.helm.valueFiles ?? [];
    const ignoreMissing = options.helm.ignoreMissingValueFiles === true;
    const unresolved = written.find((f) => resolveValueFile(unit.dir, f) === undefined);
    const candidates = [
      ...[...ownFiles.keys()].map((rel) => `${unit.dir}/${rel}`),
      ...unit.inputs.filter((i) => !i.endsWith('/')),
    ];
    const expanded = expandValueFiles(written, (f) => resolveValueFile(unit.dir, f), candidates);
    const fail = (f: string, message: string) =>
      failed(
        [
          unitProblem(
            unit,
            'UNIT_FAILED',
            message,
            `commit ${resolveValueFile(unit.dir, f) ?? f} or correct spec.valueFiles`,
            optionsFile,
          ),
        ],
        described,
      );
    if (unresolved !== undefined) return fail(unresolved, `value file ${unresolved} is not a file of this commit`);
    if (expanded.missing.length > 0 && !ignoreMissing)
      return fail(expanded.missing[0]!, `values file glob "${expanded.missing[0]}" matched no files`);
    const present: string[] = [];
    for (const resolved of expanded.files) {
      const own = resolved.startsWith(`${unit.dir}/`) ? ownFiles.get(resolved.slice(unit.dir.length + 1)) : undefined;
      const there = own ? isRegularFile(own.mode) : inputs.has(resolved);
      if (there) present.push(resolved);
      else if (!ignoreMissing)
        return fail(resolved, `value file ${resolved} is not a file of this commit the chart reads`);
    }
    // From the repository's root: resolved once, as helm is given them.
    options = { tool: 'helm', helm: { ...options.helm, valueFiles: present.map((p) => `/${p}`) } };
    described.valueFiles = [`${unit.dir}/values.yaml`, ...present];
  }
  const charts = unit.tool === 'helm' ? await chartFolders(repo, unit, inputs, ownFiles) : undefined;
  if (charts) {
    const refused = await chartSchemaProblems(repo, charts);
    if (refused.length > 0) return failed(refused, described);
  }
  const found = await findToolReport(unit.tool);
  const tool = found.binary;
  if (!tool)
    return failed(
      [
        unitProblem(
          unit,
          'TOOL_MISSING',
          `${unit.tool === 'helm' ? 'helm' : 'kustomize (or kubectl kustomize)'} is not installed: this ${unit.tool === 'helm' ? 'chart' : 'kustomization'} cannot be rendered${found.notes.length > 0 ? ` (${found.notes.join('; ')})` : ''}`,
          missingToolFix(unit.tool),
        ),
      ],
      described,
    );
  const withVersion = { ...described, toolVersion: tool.version };
  // RUN_RECIPE: how Flotilla runs the tool (flags, environment): outputs made another way are not reused.
  const key = createHash('sha256')
    .update(JSON.stringify({ v: RUN_RECIPE, tool: tool.version, marker: unit.marker, inputs: [...inputs] }))
    .digest('hex');
  // The origin annotations asked for to name files are taken out of the output, unless the kustomization asks too.
  const markerOid = ownFiles.get(unit.marker.slice(unit.dir.length + 1))?.oid;
  const keepOrigins =
    unit.tool === 'kustomize' && markerOid !== undefined
      ? asksForOrigins(new TextDecoder().decode((await readUnitFiles(repo, [[unit.marker, markerOid]])).get(markerOid)))
      : false;
  const sourceFile = charts ? await chartSourceFiles(repo, unit, charts) : undefined;
  const cached = await readCachedRun(repo, key);
  const placing = async (stdout: Uint8Array) =>
    charts && sourceFile
      ? { sourceFile, templateText: await chartTemplateTexts(repo, charts, sourceFile, stdout) }
      : {};
  // A failure at a limit stands for runs allowed no more than that (a looping chart fails at once on every load);
  // one allowed more runs again.
  if (cached && (cached.ok || withinLimits(cached.stoppedAt, limits)))
    return cached.ok
      ? parseUnitOutput({ ...origin, ...withVersion }, cached.stdout, cached.warnings, {
          keepOrigins,
          ...(cached.origins ? { origins: cached.origins } : {}),
          ...(cached.places ? { places: cached.places } : {}),
          ...(await placing(cached.stdout)),
        })
      : failed(cached.problems, withVersion);
  const result = await runUnit(
    repo,
    unit,
    inputs,
    options,
    tool,
    limits,
    optionsOid ? optionsFile : undefined,
    sourceFile,
    charts,
  );
  if (result.ok) {
    await writeCachedRun(repo, key, result);
    return parseUnitOutput({ ...origin, ...withVersion }, result.stdout, result.warnings, {
      keepOrigins,
      ...(result.origins ? { origins: result.origins } : {}),
      ...(result.places ? { places: result.places } : {}),
      ...(await placing(result.stdout)),
    });
  }
  if (result.cache)
    await writeCachedRun(repo, key, {
      ok: false,
      problems: result.problems,
      ...(result.stoppedAt ? { stoppedAt: result.stoppedAt } : {}),
    });
  return failed(result.problems, withVersion);
}

/**
 * What `kustomize edit`, as Argo CD runs it with these options, refuses for the kustomization as committed, at each
 * option's line. A kustomization that does not parse is left to kustomize to report.
 */
async function kustomizeOptionProblems(
  repo: GitRepo,
  unit: SourceUnit,
  ownFiles: ReadonlyMap<string, TreeFile>,
  k: KustomizeOptions,
  optionsDoc: SourceDocument,
): Promise<Problem[]> {
  const missing: Problem[] = [];
  (k.patches ?? []).forEach((p, i) => {
    const resolved = p.path === undefined ? undefined : resolveRelative(unit.dir, p.path);
    if (resolved === undefined) return;
    const f = ownFiles.get(resolved.slice(unit.dir.length + 1));
    if (f && isRegularFile(f.mode)) return;
    missing.push({
      ...optionsDoc.locate(['spec', 'patches', i, 'path']),
      code: 'INVALID_VALUE',
      severity: 'error',
      message:
        f?.mode === '120000'
          ? `spec.patches[${i}].path names ${resolved}, a symbolic link: a render copies files out of the commit, not links`
          : `spec.patches[${i}].path names ${resolved}, which is not a file of this commit`,
      fix:
        f?.mode === '120000'
          ? 'name the file the link points to, or commit it in place of the link'
          : `commit ${resolved} or correct the path`,
    });
  });
  if (missing.length > 0) return missing;
  const marker = ownFiles.get(unit.marker.slice(unit.dir.length + 1));
  if (!marker) return [];
  const text = new TextDecoder().decode((await readUnitFiles(repo, [[unit.marker, marker.oid]])).get(marker.oid));
  let kustomization: unknown;
  try {
    kustomization = parse(text, GO_YAML_PARSE_OPTIONS);
  } catch {
    return [];
  }
  const own = kustomization && typeof kustomization === 'object' && !Array.isArray(kustomization) ? kustomization : {};
  return applyKustomizeOptions(own as Record<string, unknown>, k).refused.map((r) => ({
    ...optionsDoc.locate(r.path),
    code: 'INVALID_VALUE',
    severity: 'error',
    message: `${r.message} (${unit.marker})`,
    fix: r.fix,
  }));
}

/** Whether a Chart.yaml declares a library chart (pure); one that does not parse is left to helm to report. */
export function isLibraryChart(chartYaml: string): boolean {
  try {
    return (parse(chartYaml) as { type?: unknown } | null)?.type === 'library';
  } catch {
    return false;
  }
}

function isRegularFile(mode: string): boolean {
  return mode === '100644' || mode === '100755';
}

function heldUnit(unit: UnitOrigin, problems: Problem[]): FileObjects {
  return emptyFileObjects(unit.marker, { unreadable: true, problems, unit });
}

function unitProblem(
  unit: SourceUnit,
  code: Problem['code'],
  message: string,
  fix: string,
  file = unit.marker,
): Problem {
  return { file, line: 1, column: 1, code, severity: 'error', message, fix };
}

/** What plan and explain name: the release, its namespace and value files for Helm (pure). */
export function describeOptions(
  unit: Pick<SourceUnit, 'dir'>,
  options: UnitOptions,
  optionsFile: string | undefined,
): Partial<UnitOrigin> {
  const base = { ...(optionsFile ? { optionsFile } : {}), ...(options.scope ? { scope: options.scope } : {}) };
  if (options.tool !== 'helm') return base;
  return {
    ...base,
    release: options.helm.releaseName ?? releaseNameOf(unit.dir),
    namespace: options.helm.namespace ?? 'default',
    valueFiles: [
      `${unit.dir}/values.yaml`,
      ...(options.helm.valueFiles ?? []).map((f) => resolveValueFile(unit.dir, f) ?? f),
    ],
  };
}

/**
 * Argo CD names a release after the application; a folder's name is the nearest thing a commit has. A name helm
 * accepts (chartutil.ValidateReleaseName: DNS labels joined by dots, at most 53 characters) is kept as it is; any other
 * is made into one (lower case, `-` for what a label may not hold), so a folder's name never holds its chart.
 */
export function releaseNameOf(dir: string): string {
  const name = dir.slice(dir.lastIndexOf('/') + 1);
  if (name.length <= MAX_RELEASE_NAME && HELM_RELEASE_NAME.test(name)) return name;
  const labels = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .split('.')
    .map((label) => label.replace(/^-+|-+$/g, ''))
    .filter((label) => label !== '');
  return (
    labels
      .join('.')
      .slice(0, MAX_RELEASE_NAME)
      .replace(/[.-]+$/, '') || 'release'
  );
}
const MAX_RELEASE_NAME = 53;
const HELM_RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Object ids of the inputs: a folder's tree id, a file's blob id. */
async function inputOids(repo: GitRepo, tree: string, inputs: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const input of inputs) {
    const segments = input.replace(/\/$/, '').split('/');
    let oid: string | undefined = tree;
    for (const segment of segments) {
      const entry: { oid: string; mode: string } | undefined = (await readTree(repo, oid!)).find(
        (e) => e.name === segment,
      );
      oid =
        entry && (segment === segments.at(-1) ? isTreeMode(entry.mode) === input.endsWith('/') : isTreeMode(entry.mode))
          ? entry.oid
          : undefined;
      if (!oid) break;
    }
    if (oid) out.set(input, oid);
  }
  return out;
}

/** Whether limits allow no more than those a failure stopped at (each limit it names). */
function withinLimits(stoppedAt: Partial<ToolLimits> | undefined, limits: ToolLimits): boolean {
  if (!stoppedAt) return true;
  const memory = limits.maxMemoryBytes ?? DEFAULT_TOOL_LIMITS.maxMemoryBytes!;
  return (
    (stoppedAt.timeoutMs === undefined || limits.timeoutMs <= stoppedAt.timeoutMs) &&
    (stoppedAt.maxOutputBytes === undefined || limits.maxOutputBytes <= stoppedAt.maxOutputBytes) &&
    (stoppedAt.maxMemoryBytes === undefined || memory <= stoppedAt.maxMemoryBytes)
  );
}

type RunResult =
  | {
      ok: true;
      stdout: Uint8Array;
      warnings: Problem[];
      origins?: Record<string, string>;
      places?: Record<string, SourceSpan>;
    }
  | { ok: false; problems: Problem[]; cache: boolean; stoppedAt?: Partial<ToolLimits> };

async function runUnit(
  repo: GitRepo,
  unit: SourceUnit,
  inputs: ReadonlyMap<string, string>,
  options: UnitOptions,
  tool: ToolBinary,
  limits: ToolLimits,
  /** The unit's options file, when the commit has one: where values the chart refuses come from. */
  optionsFile: string | undefined,
  /** Helm: the file of the commit a path in the rendered chart names (subchartPaths.ts). */
  sourceFile?: (inChart: string) => ChartPlace,
  /** Helm: the chart folders the render reads (chartFolders). */
  charts?: readonly ChartFolder[],
): Promise<RunResult> {
  // The folder as the tools see it: kustomize resolves symlinks (macOS's /var/folders is /private/var/folders) before
  // it prints a path, and only this spelling of the folder is cut out of its errors.
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'flotilla-unit-')));
  try {
    const src = path.join(root, 'src');
    // A link where a file:// dependency is copied (Rook's charts/library -> ../../library) is replaced by the copy.
    const copiedTo = new Set((unit.copiedCharts ?? []).map((c) => `${unit.dir}/${c.to}`));
    let written: Awaited<ReturnType<typeof materialize>>;
    try {
      written = await materialize(repo, inputs, src);
    } catch (err) {
      // The same inputs are as large next time: kept, so they are not read again up to the limit on every load.
      if (err instanceof UnitFileTooLarge) return { ok: false, cache: true, problems: [err.problem] };
      throw err;
    }
    if (written.unwritable.length > 0)
      return {
        ok: false,
        // A full disk passes; what a tree names stays, and fails again at once without the tool.
        cache: false,
        problems: written.unwritable.map((u) => unwritableProblem(u.path, u.code)),
      };
    if (unit.tool === 'kustomize') {
      const refused = await pluginConfigProblems(src, written.files);
      if (refused.length > 0) return { ok: false, cache: true, problems: refused };
    }
    const links = linkWarnings(written.links.filter((l) => !copiedTo.has(l.path)));
    // Where `helm dependency build` would have put each file:// dependency.
    for (const copy of unit.copiedCharts ?? []) {
      const from = path.join(src, copy.from);
      // Packed as helm packs it: without what the dependency's own .helmignore names.
      const ignored = helmIgnoreRules(await readFile(path.join(from, '.helmignore'), 'utf8').catch(() => ''));
      // A folder whose files are all links left out is not there: helm then names the dependency missing.
      await cp(from, path.join(src, unit.dir, copy.to), {
        recursive: true,
        filter: async (file) => {
          const rel = path.relative(from, file).split(path.sep).join('/');
          return !ignored(rel, (await stat(file)).isDirectory());
        },
      }).catch(() => {});
    }
    const home = path.join(root, 'home');
    await mkdir(path.join(home, 'plugins'), { recursive: true });
    // Nothing reaches the network: Go's HTTP client goes through a proxy that refuses, there is no PATH for helm
    // to find plugins or git, and Helm's repositories, registries and caches are empty folders of this run.
    const env: Record<string, string> = {
      HOME: home,
      PATH: '',
      KUBECONFIG: path.join(home, 'no-kubeconfig'),
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      http_proxy: 'http://127.0.0.1:9',
      https_proxy: 'http://127.0.0.1:9',
      NO_PROXY: '',
      no_proxy: '',
      HELM_CACHE_HOME: path.join(home, 'cache'),
      HELM_CONFIG_HOME: path.join(home, 'config'),
      HELM_DATA_HOME: path.join(home, 'data'),
      HELM_PLUGINS: path.join(home, 'plugins'),
      HELM_REGISTRY_CONFIG: path.join(home, 'registry.json'),
      HELM_REPOSITORY_CONFIG: path.join(home, 'repositories.yaml'),
      HELM_REPOSITORY_CACHE: path.join(home, 'repository'),
    };
    let args: string[];
    let cwd = path.join(src, unit.dir);
    // The kustomization as committed, when Flotilla asked it for origin annotations: what a plain build reads.
    let plainKustomization: { file: string; text: string } | undefined;
    // The kustomization as committed, before the options and the origin annotations were written into it.
    let committedKustomization: string | undefined;
    if (options.tool === 'helm') {
      const h = options.helm;
      // Test hooks run on `helm test` only, never on install: they are no part of what a cluster runs.
      args = [
        'template',
        h.releaseName ?? releaseNameOf(unit.dir),
        '.',
        '--namespace',
        h.namespace ?? 'default',
        '--skip-tests',
      ];
      // Each where the commit has it (resolved as Argo CD does), copied out with the chart.
      for (const f of h.valueFiles ?? []) args.push('--values', path.join(src, resolveValueFile(unit.dir, f)!));
      if (h.values !== undefined || h.valuesObject !== undefined) {
        const inline = path.join(root, 'values-inline.yaml');
        // Helm reads it as YAML 1.1: a string `yes`, `on` or `0b101` is written quoted, or it would come back a bool or a number.
        await writeFile(
          inline,
          h.valuesObject !== undefined ? stringify(h.valuesObject, GO_YAML_DOCUMENT_OPTIONS) : h.values!,
        );
        args.push('--values', inline);
      }
      for (const p of h.parameters ?? [])
        args.push(p.forceString ? '--set-string' : '--set', `${p.name}=${helmSetValue(p.value)}`);
      for (const p of h.fileParameters ?? []) args.push('--set-file', `${p.name}=${path.join(src, unit.dir, p.path)}`);
      if (h.includeCRDs !== false && h.skipCrds !== true) args.push('--include-crds');
      if (h.skipSchemaValidation === true) args.push('--skip-schema-validation');
      if (h.kubeVersion) args.push('--kube-version', h.kubeVersion);
      for (const v of [...builtInApiKinds(h.kubeVersion), ...(h.apiVersions ?? [])]) args.push('--api-versions', v);
    } else {
      const k = options.kustomize;
      const target = path.join(src, unit.dir);
      const file = path.join(src, unit.marker);
      committedKustomization = await readFile(file, 'utf8').catch(() => undefined);
      if (Object.keys(k).length > 0) {
        // Written into the unit's own kustomization (a private copy), as Argo CD's `kustomize edit` does.
        // Read and written as kustomize reads it (YAML 1.1): a quoted "off" stays a string, a bare on stays true.
        const kustomization = parse(await readFile(file, 'utf8'), GO_YAML_PARSE_OPTIONS) as Record<
          string,
          unknown
        > | null;
        // As Argo CD, a component the commit lacks is passed over when asked (the layout left it out of the inputs).
        const components = k.ignoreMissingComponents
          ? await asyncFilter(k.components ?? [], (c) =>
              stat(path.join(target, c)).then(
                () => true,
                () => false,
              ),
            )
          : k.components;
        const edited = applyKustomizeOptions(kustomization ?? {}, {
          ...k,
          ...(components ? { components } : {}),
        }).kustomization;
        await writeFile(file, stringify(edited, GO_YAML_DOCUMENT_OPTIONS));
      }
      // Each object of the output then names the file it came from, where its problems are reported.
      if (knowsOriginAnnotations(tool.version)) {
        const own = await readFile(file, 'utf8');
        const asked = withOriginAnnotations(own);
        if (asked !== undefined) {
          await writeFile(file, asked);
          plainKustomization = { file, text: own };
        }
      }
      cwd = root;
      args = tool.prefix.length > 0 ? [target] : ['build', target];
    }
    // A library chart (`type: library`) holds helpers for the charts that depend on it and renders nothing: `helm
    // template` refuses it ("library charts are not installable"). A monorepo keeps one in a folder of its own,
    // which is a unit with no objects, not an error.
    if (options.tool === 'helm' && isLibraryChart(await readFile(path.join(src, unit.marker), 'utf8').catch(() => '')))
      return { ok: true, stdout: new Uint8Array(), warnings: links };
    const started = await startTool(unit, tool, args, cwd, env, limits);
    if (!started.ok) return started;
    let run = started.run;
    let origins: Record<string, string> | undefined;
    // Asking for origins makes kustomize track them while it builds (api/internal/target/kusttarget.go
    // makeCustomizedResMap), so a transformer reading annotations may copy them into the content, or fail on them: then
    // the content (or the error) comes from a build of the kustomization as committed, and the origins from this one.
    if (plainKustomization && !run.timedOut && !run.overflowed && !ranOutOfMemory(run.stderr)) {
      const output = run.code === 0 ? new TextDecoder().decode(run.stdout) : undefined;
      if (output === undefined || originsLeaked(output)) {
        if (output !== undefined) origins = originsOf(output);
        await writeFile(plainKustomization.file, plainKustomization.text);
        const plain = await startTool(unit, tool, args, cwd, env, limits);
        if (!plain.ok) return plain;
        run = plain.run;
      }
    }
    if (run.timedOut)
      return {
        ok: false,
        cache: true,
        stoppedAt: { timeoutMs: limits.timeoutMs },
        problems: [
          unitProblem(
            unit,
            'UNIT_FAILED',
            `${tool.version} did not finish within ${limits.timeoutMs / 1000} s and was stopped (a template that loops?)`,
            'make the templates finish; until then the last good output is kept',
          ),
        ],
      };
    if (run.overflowed)
      return {
        ok: false,
        cache: true,
        stoppedAt: { maxOutputBytes: limits.maxOutputBytes },
        problems: [
          unitProblem(
            unit,
            'UNIT_FAILED',
            `${tool.version} output more than ${Math.round(limits.maxOutputBytes / 1024 / 1024)} MiB of manifests and was stopped`,
            'split the unit, or check for a template that repeats without end; until then the last good output is kept',
          ),
        ],
      };
    if (run.code !== 0 && ranOutOfMemory(run.stderr))
      return {
        ok: false,
        cache: true,
        stoppedAt: { maxMemoryBytes: limits.maxMemoryBytes ?? DEFAULT_TOOL_LIMITS.maxMemoryBytes! },
        problems: [
          unitProblem(
            unit,
            'UNIT_FAILED',
            `${tool.version} needed more than ${Math.round((limits.maxMemoryBytes ?? DEFAULT_TOOL_LIMITS.maxMemoryBytes!) / 1024 / 1024)} MiB of memory and was stopped`,
            'check for a template that builds ever larger values (a loop doubling a string); until then the last good output is kept',
          ),
        ],
      };
    const yamlError = run.code === 1 && options.tool === 'helm' ? yamlParseError(run.stderr) : undefined;
    const templateLine =
      yamlError && sourceFile
        ? await yamlErrorTemplateLine(tool, args, cwd, env, limits, src, yamlError, sourceFile)
        : undefined;
    if (run.code !== 0)
      return {
        ok: false,
        // helm and kustomize exit 1 for an error in what they read, which the same inputs give again; anything else
        // (a signal, a crash) may not happen next time, so it is not kept.
        cache: run.code === 1,
        problems: [
          toolProblem(
            unit,
            tool,
            run.stderr.split(`${src}/`).join('').split(root).join(''),
            unit.tool === 'helm'
              ? await readFile(path.join(src, unit.marker), 'utf8').catch(() => undefined)
              : undefined,
            optionsFile,
            sourceFile,
            options.tool === 'helm'
              ? {
                  ...(await helmInputTexts(src, unit, options, optionsFile, charts ?? [])),
                  ...(templateLine === undefined ? {} : { templateLine }),
                }
              : undefined,
            options.tool === 'kustomize'
              ? await kustomizeInputTexts(src, unit, written.files, committedKustomization)
              : undefined,
          ),
          // A file the tool did not find may be a link left out.
          ...links,
        ],
      };
    let calls = charts ? renderedCalls(unit, await chartCalls(repo, charts), run.stdout, sourceFile) : [];
    if (calls.some((c) => c.code === 'NOT_REPRODUCIBLE')) {
      // Whether such a call runs depends on the values (a password generated only when none is given): a second run
      // that writes the same bytes shows these values take none of them, and the warnings would only be noise. A
      // change of values renders the chart again, and asks again.
      const again = await runTool(tool.file, [...tool.prefix, ...args], { cwd, env, limits }).catch(() => undefined);
      if (again && again.code === 0 && Buffer.compare(again.stdout, run.stdout) === 0)
        calls = calls.filter((c) => c.code !== 'NOT_REPRODUCIBLE');
    }
    // Placed once per run and kept with the output, so a cached render reads no resources file again.
    const annotated = origins ?? (options.tool === 'kustomize' ? annotatedOrigins(run.stdout) : undefined);
    const places = annotated && (await kustomizePlaces(annotated, unit, src, committedKustomization));
    return {
      ok: true,
      stdout: options.tool === 'kustomize' ? releaseManagedBy(run.stdout, tool.version) : run.stdout,
      warnings: [...links, ...(unit.tool === 'helm' ? [...helmSkippedHooks(unit.marker, run.stderr), ...calls] : [])],
      ...(origins && run.code === 0 ? { origins } : {}),
      ...(places && Object.keys(places).length > 0 ? { places } : {}),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function asyncFilter<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep));
  return items.filter((_, i) => kept[i]);
}

/** The output as the kustomize release of the version recorded writes it (kustomizeManagedBy.ts). */
function releaseManagedBy(stdout: Uint8Array, version: string): Uint8Array {
  const semver = /^kustomize (v\d+\.\d+\.\d+)$/.exec(version)?.[1];
  if (semver === undefined) return stdout;
  const text = new TextDecoder().decode(stdout);
  const released = withReleaseManagedBy(text, semver);
  return released === text ? stdout : new TextEncoder().encode(released);
}

function annotatedOrigins(stdout: Uint8Array): Record<string, string> | undefined {
  try {
    return originsOf(new TextDecoder().decode(stdout));
  } catch {
    return undefined;
  }
}

/** Each object's place in the file its origin names, read from the unit's copy (the kustomization as committed). */
async function kustomizePlaces(
  origins: Record<string, string>,
  unit: SourceUnit,
  src: string,
  committedKustomization: string | undefined,
): Promise<Record<string, SourceSpan>> {
  const texts = new Map<string, string>();
  for (const file of originFiles(origins, unit.dir)) {
    const text =
      file === unit.marker
        ? committedKustomization
        : await readFile(path.join(src, file), 'utf8').catch(() => undefined);
    if (text !== undefined) texts.set(file, text);
  }
  return placeObjects(origins, unit.dir, (file) => texts.get(file));
}

/**
 * The kustomizations a failed build read, the unit's own first as committed (without the options and origin
 * annotations written into its copy), then each file one names that is no folder (its patches, replacements, its
 * resources files), with the kustomizations naming it: where kustomize's error, which names none of them or no line,
 * is placed (kustomizeErrorPlaces.ts).
 */
async function kustomizeInputTexts(
  src: string,
  unit: SourceUnit,
  files: readonly string[],
  committedKustomization: string | undefined,
): Promise<KustomizeInputText[]> {
  const read = (file: string) => readFile(path.join(src, file), 'utf8').catch(() => undefined);
  const markers = [
    unit.marker,
    ...files.filter((f) => f !== unit.marker && markerTool(path.posix.basename(f)) === 'kustomize'),
  ];
  const out: KustomizeInputText[] = [];
  const named = new Map<string, { resource: boolean; namedBy: string[] }>();
  for (const file of markers) {
    const text = file === unit.marker ? committedKustomization : await read(file);
    if (text === undefined) continue;
    out.push({ file, text, kustomization: true });
    const dir = path.posix.dirname(file);
    for (const ref of parseKustomization(file, text).references) {
      const resolved = resolveRelative(dir === '.' ? '' : dir, ref.path);
      if (resolved === undefined || !files.includes(resolved)) continue;
      const entry = named.get(resolved) ?? { resource: ref.folderAllowed, namedBy: [] };
      entry.namedBy.push(file);
      named.set(resolved, entry);
    }
  }
  for (const [file, { resource, namedBy }] of named) {
    const size = (await stat(path.join(src, file)).catch(() => undefined))?.size ?? Infinity;
    if (size > MAX_PLACED_FILE_BYTES) continue;
    const content = await read(file);
    if (content !== undefined) out.push({ file, text: content, kustomization: false, resource, namedBy });
  }
  return out;
}

/** A file larger than this is not searched for where an error is: a patch is nowhere near it, a resources file rarely. */
const MAX_PLACED_FILE_BYTES = 1024 * 1024;

/**
 * The value files (lowest precedence first), the options file, the charts' schemas and the chart's requirements.yaml
 * as the failed run read them, for placing helm's error at a line of one of them.
 */
async function helmInputTexts(
  src: string,
  unit: SourceUnit,
  options: Extract<UnitOptions, { tool: 'helm' }>,
  optionsFile: string | undefined,
  charts: readonly ChartFolder[],
): Promise<HelmInputTexts> {
  const valueFiles = [
    `${unit.dir}/values.yaml`,
    ...(options.helm.valueFiles ?? []).map((f) => resolveValueFile(unit.dir, f)!),
    ...(optionsFile ? [optionsFile] : []),
  ];
  const schemas = charts.flatMap(({ dir, files }) =>
    [...files.keys()].filter((p) => /^(charts\/[^/]+\/)*values\.schema\.json$/.test(p)).map((p) => `${dir}/${p}`),
  );
  const texts = new Map<string, string>();
  // requirements.yaml: where a chart of apiVersion v1 lists its dependencies.
  for (const file of [...valueFiles, ...schemas, `${unit.dir}/requirements.yaml`]) {
    const text = await readFile(path.join(src, file), 'utf8').catch(() => undefined);
    if (text !== undefined) texts.set(file, text);
  }
  return { texts, valueFiles };
}

/**
 * The line of the committed template helm's YAML parse error is at (yamlErrorLines.ts): helm counts it within the
 * failing document of the rendered template, which a second run with `--debug` prints. Undefined where it cannot tell.
 */
async function yamlErrorTemplateLine(
  tool: ToolBinary,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  limits: ToolLimits,
  src: string,
  error: { source: string; line: number },
  sourceFile: (inChart: string) => ChartPlace,
): Promise<number | undefined> {
  const debug = await runTool(tool.file, [...tool.prefix, ...args, '--debug'], { cwd, env, limits }).catch(
    () => undefined,
  );
  const rendered = debug && debugRendering(new TextDecoder().decode(debug.stdout), error.source);
  const line = rendered === undefined ? undefined : renderedErrorLine(rendered, error.line);
  if (rendered === undefined || line === undefined) return undefined;
  const place = sourceFile(error.source.slice(error.source.indexOf('/') + 1));
  const bytes = await readFile(path.join(src, place.file)).catch(() => undefined);
  const committed =
    bytes === undefined
      ? undefined
      : place.inArchive === undefined
        ? new TextDecoder().decode(bytes)
        : chartArchiveFiles(bytes).get(place.inArchive);
  return committed === undefined ? line : committedLine(committed, rendered, line);
}

/** The tool run once; a binary that went away or cannot run here (another platform's build) holds this unit only. */
async function startTool(
  unit: SourceUnit,
  tool: ToolBinary,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  limits: ToolLimits,
): Promise<{ ok: true; run: Awaited<ReturnType<typeof runTool>> } | (RunResult & { ok: false })> {
  try {
    return { ok: true, run: await runTool(tool.file, [...tool.prefix, ...args], { cwd, env, limits }) };
  } catch (err) {
    return {
      ok: false,
      cache: false,
      problems: [
        unitProblem(
          unit,
          'TOOL_MISSING',
          `${tool.file} could not be started: ${(err as Error).message}`,
          missingToolFix(unit.tool),
        ),
      ],
    };
  }
}

/**
 * The calls of a chart's own templates that rendered something (pure): a template file Helm output nothing for (all of
 * it inside `{{ if .Values.networkPolicy.enabled }}`, off) ran none of its calls, so neither `lookup` nor a random
 * value in it matters for these values. Helpers (`_*.tpl`), whose use cannot be told from the output, and the files of
 * copied dependencies stay.
 */
export function renderedCalls(
  unit: SourceUnit,
  calls: Problem[],
  stdout: Uint8Array,
  sourceFile: (inChart: string) => ChartPlace = (inChart) => ({ file: `${unit.dir}/${inChart}` }),
): Problem[] {
  const rendered = new Set<string>();
  for (const m of new TextDecoder().decode(stdout).matchAll(/^# Source: [^/\n]+\/(.+)$/gm))
    rendered.add(sourceFile(m[1]!.trim()).file);
  return calls.filter((c) => {
    if (!c.file.startsWith(`${unit.dir}/`)) return true;
    const inChart = c.file.slice(unit.dir.length + 1);
    const name = inChart.slice(inChart.lastIndexOf('/') + 1);
    if (name.startsWith('_') || !/^(charts\/[^/]+\/)*templates\//.test(inChart)) return true;
    return rendered.has(c.file);
  });
}

/**
 * Where the commit holds each file helm names in the chart's output and errors (subchartPaths.ts): from the Chart.yaml
 * of the chart, of its vendored subcharts, of the file:// dependencies copied into it, and of the packed subcharts
 * (`charts/<name>-<version>.tgz`), whose files are named in their archive.
 */
async function chartSourceFiles(
  repo: GitRepo,
  unit: SourceUnit,
  charts: readonly ChartFolder[],
): Promise<(inChart: string) => ChartPlace> {
  const chartFiles: [string, TreeFile, string][] = [];
  const archives: [string, TreeFile][] = [];
  for (const { dir, files } of charts)
    for (const [p, f] of files)
      if (isRegularFile(f.mode) && /^(charts\/[^/]+\/)*Chart\.yaml$/.test(p))
        chartFiles.push([`${dir}/${p.slice(0, -'Chart.yaml'.length)}`.replace(/\/$/, ''), f, `${dir}/${p}`]);
      else if (isRegularFile(f.mode) && /^(charts\/[^/]+\/)*charts\/[^/]+\.tgz$/.test(p))
        archives.push([`${dir}/${p}`, f]);
  const blobs = await readUnitFiles(
    repo,
    chartFiles.map(([, f, file]) => [file, f.oid] as const),
  );
  const decoder = new TextDecoder();
  const texts = new Map(chartFiles.map(([dir, f]) => [dir, decoder.decode(blobs.get(f.oid))]));
  const names = new Map<string, string>();
  for (const [file, packed] of await packedCharts(repo, archives)) if (packed.name) names.set(file, packed.name);
  return subchartFileResolver(unit.dir, texts, unit.copiedCharts ?? [], names);
}

/**
 * The packed charts at these paths, each unpacked once for as long as its blob id is kept (packedCharts.ts): only the
 * archives not read before are read out of the commit.
 */
async function packedCharts(
  repo: GitRepo,
  archives: readonly (readonly [string, TreeFile])[],
): Promise<Map<string, PackedChart>> {
  const out = new Map<string, PackedChart>();
  const unknown = archives.filter(([file, f]) => {
    const known = knownPackedChart(file, f.oid);
    if (known) out.set(file, known);
    return !known;
  });
  const blobs = await readUnitFiles(
    repo,
    unknown.map(([file, f]) => [file, f.oid] as const),
  );
  for (const [file, f] of unknown) out.set(file, readPackedChart(file, f.oid, blobs.get(f.oid)!));
  return out;
}

/**
 * The committed text of each template helm's output names (`# Source:`), by its place (subchartPaths.ts): a file of a
 * chart folder, or a file inside a packed subchart.
 */
async function chartTemplateTexts(
  repo: GitRepo,
  charts: readonly ChartFolder[],
  sourceFile: (inChart: string) => ChartPlace,
  stdout: Uint8Array,
): Promise<(place: ChartPlace) => string | undefined> {
  const keyOf = (place: ChartPlace) =>
    place.inArchive === undefined ? place.file : `${place.file}:${place.inArchive}`;
  const places = new Map<string, ChartPlace>();
  for (const m of new TextDecoder().decode(stdout).matchAll(/^# Source: [^/\n]+\/(.+)$/gm)) {
    const place = sourceFile(m[1]!.trim());
    places.set(keyOf(place), place);
  }
  const blobsOf = new Map<string, TreeFile>();
  for (const { file } of places.values()) {
    const chart = charts.filter((c) => file.startsWith(`${c.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    const f = chart?.files.get(file.slice(chart.dir.length + 1));
    if (f && isRegularFile(f.mode)) blobsOf.set(file, f);
  }
  const inArchive = (place: ChartPlace) => place.inArchive !== undefined;
  const archiveFiles = new Set([...places.values()].filter(inArchive).map((p) => p.file));
  const packed = await packedCharts(
    repo,
    [...blobsOf].filter(([file]) => archiveFiles.has(file)),
  );
  const blobs = await readUnitFiles(
    repo,
    [...places.values()]
      .filter((p) => !inArchive(p) && blobsOf.has(p.file))
      .map((p) => [p.file, blobsOf.get(p.file)!.oid] as const),
  );
  const decoder = new TextDecoder();
  const committed = (file: string) => {
    const bytes = blobs.get(blobsOf.get(file)?.oid ?? '');
    return bytes && decoder.decode(bytes);
  };
  const texts = new Map<string, string>();
  for (const [key, place] of places) {
    const text =
      place.inArchive === undefined ? committed(place.file) : packed.get(place.file)?.templates.get(place.inArchive);
    if (text !== undefined) texts.set(key, text);
  }
  return (place) => texts.get(keyOf(place));
}

/**
 * The chart's templates read for calls a render answers with nothing or cannot reproduce (chartCalls.ts), and those
 * of the file:// dependencies copied into it, named where the commit has them.
 */
async function chartCalls(repo: GitRepo, charts: readonly ChartFolder[]): Promise<Problem[]> {
  const out: Problem[] = [];
  for (const chart of charts) {
    const all = [...chart.files].filter(([, f]) => isRegularFile(f.mode));
    const files = all.filter(([p]) => /^(charts\/[^/]+\/)*templates\//.test(p));
    // Subcharts as `helm dependency build` vendors them: packed.
    const archives = all.filter(([p]) => /^(charts\/[^/]+\/)*charts\/[^/]+\.tgz$/.test(p));
    const blobs = await readUnitFiles(
      repo,
      [...files, ...archives].map(([p, f]) => [`${chart.dir}/${p}`, f.oid] as const),
    );
    const decoder = new TextDecoder();
    out.push(
      ...chartCallWarnings(chart.dir, new Map(files.map(([p, f]) => [p, decoder.decode(blobs.get(f.oid))]))),
      ...archives.flatMap(([p, f]) =>
        archivedChartCallWarnings(`${chart.dir}/${p}`, chartArchiveFiles(blobs.get(f.oid)!)),
      ),
    );
  }
  return out;
}

/** A chart folder of the commit a helm render reads, by repository path, with its files. */
interface ChartFolder {
  dir: string;
  files: ReadonlyMap<string, TreeFile>;
}

/**
 * The unit's chart (`ownFiles`, as renderUnit listed them) and the file:// dependencies copied into it, each listed
 * once for what reads their files (chartSchemaProblems, chartSourceFiles, chartCalls).
 */
async function chartFolders(
  repo: GitRepo,
  unit: SourceUnit,
  inputs: ReadonlyMap<string, string>,
  ownFiles: ReadonlyMap<string, TreeFile>,
): Promise<ChartFolder[]> {
  const charts: ChartFolder[] = [{ dir: unit.dir, files: ownFiles }];
  for (const c of unit.copiedCharts ?? []) {
    const tree = inputs.get(`${c.from}/`);
    if (tree) charts.push({ dir: c.from, files: await listUnitFolder(repo, tree, `${c.from}/`) });
  }
  return charts;
}

/**
 * What the chart's schemas (and those of the file:// dependencies copied into it, and of packed subcharts) would make
 * helm read outside the commit (chartSchemas.ts), named where the commit has them.
 */
async function chartSchemaProblems(repo: GitRepo, charts: readonly ChartFolder[]): Promise<Problem[]> {
  const out: Problem[] = [];
  for (const chart of charts) {
    const files = [...chart.files].flatMap(([p, f]) => {
      const input = isRegularFile(f.mode) ? isSchemaInput(p) : undefined;
      return input ? [{ file: `${chart.dir}/${p}`, f, input }] : [];
    });
    const schemas = files.filter((s) => s.input === 'schema');
    const blobs = await readUnitFiles(
      repo,
      schemas.map((s) => [s.file, s.f.oid] as const),
    );
    const packed = await packedCharts(
      repo,
      files.filter((s) => s.input === 'archive').map((s) => [s.file, s.f] as const),
    );
    for (const { file, f, input } of files) {
      const bytes = input === 'schema' ? blobs.get(f.oid) : undefined;
      out.push(...(bytes ? schemaFileProblems(file, bytes) : (packed.get(file)?.schemaProblems ?? [])));
    }
  }
  return out;
}

/**
 * What the built-in plugin configurations among a Kustomize unit's files would make kustomize load from outside the
 * commit (parseKustomization's pluginConfigOutsideLoads), at each field's line. Every file is looked at, not only those
 * a `transformers:` list names: a folder named there is built, and its files are the configurations. A file naming no
 * such kind, with no escape, tag or alias that could spell one, is not parsed.
 */
async function pluginConfigProblems(src: string, files: readonly string[]): Promise<Problem[]> {
  const out: Problem[] = [];
  for (const file of files) {
    const bytes = await readFile(path.join(src, file));
    const text = bytes.toString('latin1');
    if (!PLUGIN_KIND_HINT.test(text)) continue;
    // Read as YAML whatever the name: kustomize reads a configuration named .json as YAML too.
    const parsed = parseDocuments(`${file}.yaml`, bytes);
    for (const doc of parsed.documents)
      for (const load of pluginConfigOutsideLoads(doc.value)) {
        const at = doc.locate(load.at);
        out.push({
          file,
          line: at.line,
          column: at.column,
          code: 'INVALID_VALUE',
          severity: 'error',
          message: outsideLoadMessage(file, load),
          fix: OUTSIDE_LOAD_FIX,
        });
      }
  }
  return out;
}

/** A kind pluginConfigOutsideLoads reads, or YAML that could spell one another way (an escape, a tag, an alias). */
const PLUGIN_KIND_HINT = /Transformer|Generator|\\|!|\*/;

/**
 * The symbolic links a render left out, as warnings at each (pure): the tool sees the commit's files, never a link, so
 * a template or value file committed as a link is not rendered, and a link cannot lead a render out of the commit.
 */
export function linkWarnings(links: readonly { path: string; target: string }[]): Problem[] {
  return links.map((l) => ({
    file: l.path,
    line: 1,
    column: 1,
    code: 'SYMLINK_NOT_FOLLOWED',
    severity: 'warning',
    message: `${l.path} is a symbolic link (to ${l.target}) and is left out of the render: a render copies files out of the commit, not links`,
    fix: 'commit the file itself in place of the link',
  }));
}

/**
 * Why a file of the commit could not be written out for the tool (pure), at the file: a hand-made tree can name one
 * path twice (a file and a folder, which git fsck refuses as duplicateEntries) or a name longer than a file system
 * takes, and a render holds that unit only, never the commit.
 */
export function unwritableProblem(file: string, code: string): Problem {
  const why =
    code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR'
      ? `${file} is both a file and a folder in this commit's tree (two entries of one name, which git fsck refuses as duplicateEntries and git itself never writes)`
      : code === 'ENAMETOOLONG'
        ? `${file} has a name or path longer than a file system takes`
        : `${file} could not be written out for the render (${code})`;
  return {
    file,
    line: 1,
    column: 1,
    code: 'UNIT_FAILED',
    severity: 'error',
    message: `${why}: the unit is not rendered, and its last good output is kept`,
    fix:
      code === 'ENAMETOOLONG'
        ? 'rename the file or folder to a shorter name (at most 255 bytes a name)'
        : 'commit the folder again with git (git rm -r --cached the folder, git add it, commit), which writes each name once',
  };
}

/**
 * The inputs written out of Git's objects under `dir`, at their repository paths; symbolic links (returned, with their
 * targets) and submodules are left out, and so are the files the file system refused (`unwritable`, with its code).
 */
async function materialize(
  repo: GitRepo,
  inputs: ReadonlyMap<string, string>,
  dir: string,
): Promise<{
  links: { path: string; target: string }[];
  unwritable: { path: string; code: string }[];
  /** The files written, by repository path. */
  files: string[];
}> {
  const files = new Map<string, { oid: string; mode: string }>();
  for (const [input, oid] of inputs) {
    if (!input.endsWith('/')) {
      files.set(input, { oid, mode: '100644' });
      continue;
    }
    for (const [p, f] of await listUnitFolder(repo, oid, input)) files.set(`${input}${p}`, f);
  }
  const wanted = [...files].filter(([, f]) => isRegularFile(f.mode));
  const linked = [...files].filter(([, f]) => f.mode === '120000');
  // Read and written one at a time: a unit's files are held in memory no more than one at once.
  const budget = { left: UNIT_READ_LIMITS.maxBytes };
  const targets = await readUnitFiles(
    repo,
    linked.map(([p, f]) => [p, f.oid] as const),
    budget,
  );
  // Every path stays inside the folder, whatever a hand-made tree names (listTreeFiles already leaves `..` out).
  const inside = (p: string) => path.resolve(dir, p).startsWith(`${path.resolve(dir)}${path.sep}`);
  const unwritable: { path: string; code: string }[] = [];
  const written: string[] = [];
  for (const [p, f] of wanted) {
    if (!inside(p)) continue;
    const target = path.join(dir, p);
    const bytes = (await readUnitFiles(repo, [[p, f.oid]], budget)).get(f.oid)!;
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes);
      if (f.mode === '100755') await chmod(target, 0o755);
      written.push(p);
    } catch (err) {
      const code = String((err as NodeJS.ErrnoException).code ?? 'EIO');
      // Named where the tree holds the name twice: the file that is also a folder above this one.
      const clash = [...ancestorsOf(p)].find((a) => files.has(a)) ?? p;
      if (!unwritable.some((u) => u.path === clash)) unwritable.push({ path: clash, code });
    }
  }
  await mkdir(dir, { recursive: true });
  const decoder = new TextDecoder();
  return {
    links: linked.map(([p, f]) => ({
      path: p,
      target: decoder.decode(targets.get(f.oid) ?? new Uint8Array()).slice(0, 200),
    })),
    unwritable,
    files: written,
  };
}

function* ancestorsOf(file: string): Generator<string> {
  for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1)) yield file.slice(0, i);
}
