import type { Problem } from '../errors/problem.ts';
import { resolveRelative, type SourceUnit } from './detectUnits.ts';
import type { ToolBinary } from './unitTools.ts';
import type { ChartPlace } from './subchartPaths.ts';
import { schemaErrorPath, whereValueIsSet } from './valueLines.ts';
import { yamlParseError } from './yamlErrorLines.ts';
import {
  failingKustomizationDir,
  kustomizeErrorPlace,
  readableKustomizeError,
  type KustomizeInputText,
} from './kustomizeErrorPlaces.ts';

/**
 * Texts of the commit a Helm error can be placed in: `texts` by repository path (value files, the options file, the
 * charts' values.schema.json), `valueFiles` the value files helm merged, lowest precedence first (the chart's
 * values.yaml, spec.valueFiles, then the options file).
 */
export interface HelmInputTexts {
  texts: ReadonlyMap<string, string>;
  valueFiles: readonly string[];
  /**
   * The line of the template file a YAML parse error is at (yamlErrorLines.ts): helm's `line N` counts within the
   * failing document of the rendered template, not the file.
   */
  templateLine?: number;
}

/**
 * The tool's error at the file and line it names: Helm says `<chart>/templates/x.yaml:12:5` or `parse error at
 * (<chart>/templates/x.yaml:3)` with the chart's name where the folder is; Kustomize names paths in the folder.
 */
export function toolProblem(
  unit: SourceUnit,
  tool: ToolBinary,
  stderr: string,
  chartYaml?: string,
  optionsFile?: string,
  /** Helm: the file of the commit a path in the rendered chart names (subchartPaths.ts). */
  sourceFile: (inChart: string) => ChartPlace = (inChart) => ({ file: copiedFrom(unit, `${unit.dir}/${inChart}`) }),
  inputs: HelmInputTexts = { texts: new Map(), valueFiles: [] },
  /** Kustomize: the kustomizations the build read (the unit's own first) and the patch files they name. */
  kustomizeTexts: readonly KustomizeInputText[] = [],
): Problem {
  // Kustomize quotes a transformer's whole configuration between backticks before the cause; the kustomization
  // holds it already, and left in, it pushed the cause out of the message.
  const raw = errorFirst(stderr)
    .replace(/^Error: /m, '')
    // helm's advice to its own user: Flotilla runs helm, and takes no such flag.
    .replace(/^Use --debug flag to render out invalid YAML$/m, '')
    .replace(/ with config: `[^`]*`/g, '')
    .trim();
  const text = unit.tool === 'kustomize' ? readableKustomizeError(raw) : raw;
  const missing = unit.tool === 'helm' ? /missing in charts\/ directory: (.+)$/m.exec(text) : null;
  if (missing)
    return missingDependency(
      unit,
      tool,
      missing[1]!.split(/,\s*/),
      chartYaml,
      inputs.texts.get(`${unit.dir}/requirements.yaml`),
    );
  const kube =
    unit.tool === 'helm'
      ? /chart requires kubeVersion: (\S+) which is incompatible with Kubernetes (\S+)/.exec(text)
      : null;
  if (kube) return incompatibleKubeVersion(unit, tool, kube[1]!, kube[2]!, chartYaml);
  if (unit.tool === 'helm' && /values don't meet the specifications of the schema/.test(text))
    return (
      unreachableSchemaUrl(unit, tool, text, chartYaml, sourceFile, inputs) ??
      valuesAgainstSchema(unit, tool, text, chartYaml, optionsFile, inputs)
    );
  let message =
    shortened(text)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 3)
      .join(' ')
      .slice(0, 600) || 'no error message';
  let file = unit.marker;
  // How the fix names the file: a packed subchart's template by its path in the archive.
  let shown: string | undefined;
  let line = 1;
  let column = 1;
  const within = (p: string | undefined) =>
    p !== undefined &&
    (p.startsWith(`${unit.dir}/`) || unit.inputs.some((i) => (i.endsWith('/') ? p.startsWith(i) : p === i)));
  // Kustomize names the file it was reading relative to the kustomization it was building, a base's when it failed
  // in one (`from 'x.yaml'`, `in File: x.yaml`, a patch it cannot parse as `from [path: "x.yaml"]`).
  const named = [...text.matchAll(/(?:in File: |from '|\[path: ")([^'"\s]+\.ya?ml)/g)].map((k) => k[1]!).at(-1);
  const placed = unit.tool === 'kustomize' ? kustomizeErrorPlace(text, kustomizeTexts, unit.dir) : undefined;
  const m =
    unit.tool === 'kustomize' && (named || placed)
      ? undefined
      : /([\w.-]+)\/([\w./-]+\.(?:ya?ml|tpl|txt|json))(?::(\d+))?(?::(\d+))?/.exec(text);
  if (placed && within(placed.file)) {
    file = placed.file;
    line = placed.line;
    column = placed.column ?? 1;
  } else if (unit.tool === 'kustomize' && named) {
    const inRepo = within(named) ? named : resolveRelative(failingKustomizationDir(text, unit.dir), named);
    if (within(inRepo)) file = inRepo!;
  } else if (m) {
    const place: ChartPlace = unit.tool === 'helm' ? sourceFile(m[2]!) : { file: `${m[1]}/${m[2]}` };
    const inRepo = place.file;
    if (inRepo.startsWith(`${unit.dir}/`) || unit.inputs.some((i) => inRepo.startsWith(i))) {
      file = inRepo;
      if (place.inArchive !== undefined)
        shown = `${place.inArchive} in ${inRepo} (a packed chart: vendor one that renders, or the chart unpacked under charts/)`;
      // Helm names files by the chart's name (a subchart's by its alias); the user knows them by the folder, and a
      // packed subchart's template by the archive holding it.
      if (unit.tool === 'helm')
        message = message.replace(
          new RegExp(`(?<![\\w.-])${escapeRegExp(m[1]!)}/([\\w./-]+)?((?::\\d+){0,2})`, 'g'),
          (_, inChart: string | undefined, at: string) => {
            if (inChart === undefined) return `${unit.dir}/${at}`;
            const named = sourceFile(inChart);
            return named.inArchive === undefined ? `${named.file}${at}` : `${named.inArchive}${at} in ${named.file}`;
          },
        );
      // A line in a packed template is not a line of the archive.
      line = m[3] && place.inArchive === undefined ? Number(m[3]) : 1;
      column = m[4] && place.inArchive === undefined ? Number(m[4]) : 1;
    }
  }
  // A file:// dependency's files are named where the commit has them, not where the render copied them.
  for (const copy of unit.copiedCharts ?? []) message = message.split(`${unit.dir}/${copy.to}/`).join(`${copy.from}/`);
  const yamlLine = /line (\d+)/.exec(text);
  if (line === 1 && file !== unit.marker && !file.endsWith('.tgz') && yamlLine) line = Number(yamlLine[1]);
  const yamlError = unit.tool === 'helm' && inputs.templateLine !== undefined ? yamlParseError(text) : undefined;
  if (yamlError && file !== unit.marker) {
    message = message.replace(
      /yaml: line (\d+):/,
      `yaml: line $1 of its document as helm counts, line ${inputs.templateLine} of the template:`,
    );
    // A line in a packed template is not a line of the archive: the message names it.
    if (!shown) line = inputs.templateLine!;
  }
  return {
    file,
    line,
    column,
    code: 'UNIT_FAILED',
    severity: 'error',
    message: `${tool.version} failed for ${unit.dir}: ${message}`,
    fix: `${
      unit.tool === 'helm' && /execution error at \(/.test(text)
        ? `give the chart the values it requires (its values.yaml, or values and parameters in ${unit.dir}/flotilla-unit.yaml), or correct ${shown ?? file}`
        : `correct ${shown ?? (file === unit.marker ? `the ${unit.tool === 'helm' ? 'chart' : 'kustomization'}` : file)}`
    } and commit; until then the unit's last good output is kept`,
  };
}

/**
 * The tool's error before the warnings it logged while loading (helm's `load.go:120: Warning: …` for a v2 chart with a
 * requirements.yaml): what failed is what the message leads with, the warnings after it. Pure.
 */
function errorFirst(stderr: string): string {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Error: '));
  return at <= 0 ? stderr : [...lines.slice(at), ...lines.slice(0, at)].join('\n');
}

/**
 * The values the chart was given fail its values.schema.json: the chart is fine, the values are what to correct, at
 * the line of the first value refused, in the file that set it last (the unit's options, a value file, the chart's own
 * values.yaml); without one (a value the schema requires that no file gives), at the options file or values.yaml.
 */
function valuesAgainstSchema(
  unit: SourceUnit,
  tool: ToolBinary,
  text: string,
  chartYaml: string | undefined,
  optionsFile: string | undefined,
  inputs: HelmInputTexts,
): Problem {
  const own = ownChartName(chartYaml);
  const reasons: string[] = [];
  let place: { file: string; line: number; column: number } | undefined;
  // helm lists the refused values under the name of each chart whose schema refused them (a subchart's values are
  // under its name, or alias, in the values given).
  let chart: string | undefined;
  const sources = inputs.valueFiles.flatMap((file) => {
    const t = inputs.texts.get(file);
    return t === undefined ? [] : [{ file, text: t, options: file === optionsFile }];
  });
  for (const l of text.split('\n').map((x) => x.trim())) {
    if (/^[\w.-]+:$/.test(l)) chart = l.slice(0, -1);
    if (!l.startsWith('- ')) continue;
    const reason = l.slice(2);
    reasons.push(reason);
    const path = schemaErrorPath(reason);
    if (place || !path) continue;
    place = whereValueIsSet(sources, chart === undefined || chart === own ? path : [chart, ...path]);
  }
  const file = place?.file ?? optionsFile ?? `${unit.dir}/values.yaml`;
  const shown = reasons.slice(0, 5);
  return {
    file,
    line: place?.line ?? 1,
    column: place?.column ?? 1,
    code: 'UNIT_FAILED',
    severity: 'error',
    message:
      `${tool.version} failed for ${unit.dir}: the values given to the chart do not meet its values.schema.json${shown.length > 0 ? `: ${shown.join('; ')}` : ''}`.slice(
        0,
        800,
      ),
    fix: `${file === optionsFile ? `correct the values in ${optionsFile} (values, valuesObject, parameters) or in the value files it names` : `correct ${file}`} to what the chart's values.schema.json allows, and commit; until then the unit's last good output is kept`,
  };
}

/**
 * A schema helm could not load because it refers to a URL (`"$ref": "https://…"`), which a render never reaches (no
 * network): the values are not at fault, so the problem is at the schema naming the URL, with helm's own words.
 * Undefined when helm fetched nothing.
 */
function unreachableSchemaUrl(
  unit: SourceUnit,
  tool: ToolBinary,
  text: string,
  chartYaml: string | undefined,
  sourceFile: (inChart: string) => ChartPlace,
  inputs: HelmInputTexts,
): Problem | undefined {
  const lines = text.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => /^Get "[^"]+": /.test(l));
  if (at < 0) return undefined;
  const url = /^Get "([^"]+)"/.exec(lines[at]!)![1]!;
  // helm names the chart whose schema failed on the line before its errors: the unit's own, or a subchart.
  const chart = lines
    .slice(0, at)
    .reverse()
    .find((l) => /^[\w.-]+:$/.test(l))
    ?.slice(0, -1);
  const own = ownChartName(chartYaml);
  const place: ChartPlace =
    chart === undefined || chart === own
      ? { file: `${unit.dir}/values.schema.json` }
      : sourceFile(`charts/${chart}/values.schema.json`);
  const file = place.inArchive === undefined ? place.file : `${place.inArchive} in ${place.file}`;
  return {
    file: place.file,
    // The line naming the URL; a relative `$ref` helm resolved against the schema's `$id` names it in no line whole,
    // nor has a packed chart's schema lines of the commit: then the schema's first line.
    ...(place.inArchive === undefined ? urlLine(inputs.texts.get(place.file), url) : { line: 1, column: 1 }),
    code: 'UNIT_FAILED',
    severity: 'error',
    message: `${tool.version} failed for ${unit.dir}: ${file} refers to ${url}, which a render cannot fetch: it reads only the commit, with no network (${lines[at]!.slice(0, 300)})`,
    fix: `copy the definitions ${url} holds into ${file} (under "$defs") and refer to them by "#/$defs/…", or set spec.skipSchemaValidation: true in ${unit.dir}/flotilla-unit.yaml; until then the unit's last good output is kept`,
  };
}

/** Where a schema's text names a URL (JSON may escape its slashes), else its first line. */
function urlLine(schema: string | undefined, url: string): { line: number; column: number } {
  const at =
    schema === undefined
      ? -1
      : ([url, url.replaceAll('/', '\\/')].map((u) => schema.indexOf(u)).find((i) => i >= 0) ?? -1);
  if (at < 0) return { line: 1, column: 1 };
  const before = schema!.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}

/** The unit's chart name as helm heads its schema errors with it, from the unit's Chart.yaml. */
function ownChartName(chartYaml: string | undefined): string | undefined {
  return chartYaml === undefined ? undefined : /^name:\s*["']?([\w.-]+)/m.exec(chartYaml)?.[1];
}

/** A path inside a chart's copy of a file:// dependency, as the commit has it: the dependency's own folder. */
function copiedFrom(unit: SourceUnit, inRepo: string): string {
  for (const copy of unit.copiedCharts ?? []) {
    const at = `${unit.dir}/${copy.to}/`;
    if (inRepo.startsWith(at)) return `${copy.from}/${inRepo.slice(at.length)}`;
  }
  return inRepo;
}

/**
 * Helm's error without what does not help here: the `--debug` hint (Flotilla runs the tool, not the user), and a
 * chain of nested `include`s (a template that includes itself repeats its clause a thousand times) cut to its first
 * clause, which names the template and line, and its cause.
 */
function shortened(text: string): string {
  const clean = text.replace(/\n*Use --debug flag to render out invalid YAML\s*$/, '');
  const clauses = clean.split(/: error calling (?:include|tpl): /);
  return clauses.length > 2 ? `${clauses[0]}: … ${clauses.at(-1)}` : clean;
}

/**
 * A dependency Chart.yaml lists that charts/ lacks: Helm would fetch it from its repository on `helm dependency
 * build`, which a render never does (it reads only the commit), so the fix is to vendor it. Placed at the dependency's
 * `name:` in Chart.yaml when the file is at hand.
 */
function missingDependency(
  unit: SourceUnit,
  tool: ToolBinary,
  names: string[],
  chartYaml: string | undefined,
  requirementsYaml: string | undefined,
): Problem {
  let line = 1;
  let column = 1;
  // helm reads the dependencies of requirements.yaml (apiVersion v1's place for them) over Chart.yaml's, whatever the
  // chart's apiVersion (loader.LoadFiles).
  const listed = (text: string | undefined) => text !== undefined && /^dependencies\s*:/m.test(text);
  const inRequirements = listed(requirementsYaml);
  const file = inRequirements ? `${unit.dir}/requirements.yaml` : unit.marker;
  const lines = (inRequirements ? requirementsYaml : chartYaml)?.split('\n') ?? [];
  const from = lines.findIndex((l) => /^dependencies\s*:/.test(l));
  const at =
    from < 0
      ? -1
      : lines.findIndex(
          (l, i) =>
            i > from &&
            names.some((n) => new RegExp(`^\\s*(?:-\\s*)?name\\s*:\\s*["']?${escapeRegExp(n)}["']?\\s*$`).test(l)),
        );
  if (at >= 0) {
    line = at + 1;
    column = lines[at]!.indexOf('name') + 1;
  }
  const list = names.join(', ');
  return {
    file,
    line,
    column,
    code: 'UNIT_FAILED',
    severity: 'error',
    message: `${tool.version} failed for ${unit.dir}: the chart depends on ${list}, which ${names.length > 1 ? 'are' : 'is'} not vendored under ${unit.dir}/charts/ (a render reads only the commit, never a chart repository)`,
    fix: `run \`helm dependency build ${unit.dir}\` where the chart repository is reachable and commit ${unit.dir}/charts/ (and ${inRequirements ? 'requirements.lock' : 'Chart.lock'}), or remove the dependency from ${file}; until then the unit's last good output is kept`,
  };
}

/**
 * The chart's kubeVersion constraint refuses the version rendered for (.Capabilities.KubeVersion: the unit's
 * kubeVersion option, else Helm's default). Placed at Chart.yaml's `kubeVersion:` when the file is at hand.
 */
function incompatibleKubeVersion(
  unit: SourceUnit,
  tool: ToolBinary,
  wants: string,
  given: string,
  chartYaml: string | undefined,
): Problem {
  const lines = chartYaml?.split('\n') ?? [];
  const at = lines.findIndex((l) => /^kubeVersion\s*:/.test(l));
  return {
    file: unit.marker,
    line: at >= 0 ? at + 1 : 1,
    column: 1,
    code: 'UNIT_FAILED',
    severity: 'error',
    message: `${tool.version} failed for ${unit.dir}: the chart requires kubeVersion ${wants}, and it renders for Kubernetes ${given}`,
    fix: `set spec.kubeVersion in ${unit.dir}/flotilla-unit.yaml to a version the chart supports (the members' version), or widen the chart's kubeVersion; until then the unit's last good output is kept`,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
