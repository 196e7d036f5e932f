import { isMap, isSeq, parseDocument } from 'yaml';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { CopiedChart } from './chartDependencies.ts';

/** A Chart.yaml's `name` and its dependencies' aliases (alias → dependency name), as helm reads them. */
interface ChartNames {
  name?: string;
  aliases: Map<string, string>;
}

function chartNames(text: string): ChartNames {
  const aliases = new Map<string, string>();
  try {
    const doc = parseDocument(text, GO_YAML_PARSE_OPTIONS);
    const name = doc.get('name');
    const deps = doc.get('dependencies', true);
    if (isSeq(deps))
      for (const dep of deps.items) {
        if (!isMap(dep)) continue;
        const alias = dep.get('alias');
        const depName = dep.get('name');
        if (typeof alias === 'string' && alias !== '' && typeof depName === 'string') aliases.set(alias, depName);
      }
    return { ...(typeof name === 'string' ? { name } : {}), aliases };
  } catch {
    return { aliases };
  }
}

/** Where the commit holds a file of the rendered chart: a file, or a file inside a packed chart (`inArchive`). */
export interface ChartPlace {
  /** The file of the commit: the template itself, or the packed chart (`charts/<name>-<version>.tgz`) holding it. */
  file: string;
  /** The template's path inside the packed chart, as helm names it there (`templates/deployment.yaml`). */
  inArchive?: string;
}

/** The name a packed chart is rendered under, read from the Chart.yaml it holds (pure). */
export function packedChartName(chartYaml: string): string | undefined {
  return chartNames(chartYaml).name;
}

/**
 * Where the commit holds a file helm names by its place in the rendered chart (pure): helm calls a subchart's files
 * `charts/<name>/…` after the name it renders the subchart under, the dependency's `alias` or its Chart.yaml `name`,
 * never after the folder it was vendored in (`charts/sub/` rendered as `first` and `second` is
 * `charts/first/templates/…`), and a `file://` dependency is copied in from its own folder. `charts` holds the
 * Chart.yaml text of each chart folder the render reads, by repository path: the unit's, its vendored subcharts' and
 * the copied dependencies'. A packed subchart (`charts/<name>-<version>.tgz`, as `helm dependency build` vendors it)
 * has no folder: its files are placed in the archive, which `archives` names by repository path with the chart name
 * it holds. A path it cannot place at all is named in the unit's folder as helm wrote it.
 */
export function subchartFileResolver(
  unitDir: string,
  charts: ReadonlyMap<string, string>,
  copied: readonly CopiedChart[] = [],
  archives: ReadonlyMap<string, string> = new Map(),
): (inChart: string) => ChartPlace {
  const names = new Map<string, ChartNames>();
  const namesOf = (dir: string) => {
    let n = names.get(dir);
    if (!n) {
      const text = charts.get(dir);
      n = text === undefined ? { aliases: new Map() } : chartNames(text);
      names.set(dir, n);
    }
    return n;
  };
  const subchartDir = (dir: string, rendered: string): string | undefined => {
    const name = namesOf(dir).aliases.get(rendered) ?? rendered;
    const prefix = `${dir}/charts/`;
    const vendored = [...charts.keys()]
      .filter((d) => d.startsWith(prefix) && !d.slice(prefix.length).includes('/'))
      .sort();
    // The folder's own name first: where two folders hold charts of one name, helm's pick is not the commit's to tell.
    const found =
      vendored.find((d) => d === `${prefix}${name}` && namesOf(d).name === name) ??
      vendored.find((d) => namesOf(d).name === name);
    if (found) return found;
    if (dir === unitDir) return copied.find((c) => c.to === `charts/${name}`)?.from;
    return undefined;
  };
  const packed = (dir: string, rendered: string): string | undefined => {
    const name = namesOf(dir).aliases.get(rendered) ?? rendered;
    const prefix = `${dir}/charts/`;
    return [...archives]
      .filter(([p, n]) => n === name && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map(([p]) => p)
      .sort()[0];
  };
  return (inChart) => {
    let dir = unitDir;
    let rest = inChart;
    for (let m = /^charts\/([^/]+)\/(.+)$/.exec(rest); m; m = /^charts\/([^/]+)\/(.+)$/.exec(rest)) {
      const next = subchartDir(dir, m[1]!);
      if (next === undefined) {
        // Within the archive, helm's own path names the file (a chart packed inside it stays `charts/<name>/…`).
        const archive = packed(dir, m[1]!);
        if (archive !== undefined) return { file: archive, inArchive: m[2]! };
        break;
      }
      dir = next;
      rest = m[2]!;
    }
    return { file: `${dir}/${rest}` };
  };
}
