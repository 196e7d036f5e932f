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

/**
 * Where the commit holds a file helm names by its place in the rendered chart (pure): helm calls a subchart's files
 * `charts/<name>/…` after the name it renders the subchart under, the dependency's `alias` or its Chart.yaml `name`,
 * never after the folder it was vendored in (`charts/sub/` rendered as `first` and `second` is
 * `charts/first/templates/…`), and a `file://` dependency is copied in from its own folder. `charts` holds the
 * Chart.yaml text of each chart folder the render reads, by repository path: the unit's, its vendored subcharts' and
 * the copied dependencies'. A path it cannot place (a packed subchart's file) is named in the unit's folder as helm
 * wrote it.
 */
export function subchartFileResolver(
  unitDir: string,
  charts: ReadonlyMap<string, string>,
  copied: readonly CopiedChart[] = [],
): (inChart: string) => string {
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
  return (inChart) => {
    let dir = unitDir;
    let rest = inChart;
    for (let m = /^charts\/([^/]+)\/(.+)$/.exec(rest); m; m = /^charts\/([^/]+)\/(.+)$/.exec(rest)) {
      const next = subchartDir(dir, m[1]!);
      if (next === undefined) break;
      dir = next;
      rest = m[2]!;
    }
    return `${dir}/${rest}`;
  };
}
