import { LineCounter, parseDocument, isMap, isSeq, isScalar, visit, type Node, type YAMLMap } from 'yaml';
import type { Problem } from '../errors/problem.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';

/** A path a kustomization reads, as written, with where it is written. */
export interface KustomizationReference {
  /** As written (`../base`, `deployment.yaml`), relative to the kustomization's folder. */
  path: string;
  /** Whether kustomize reads it as a kustomization folder (resources, bases, components) or a file only. */
  folderAllowed: boolean;
  line: number;
  column: number;
  /** The file that names it, where not the kustomization (a unit's flotilla-unit.yaml naming a component). */
  file?: string;
}

export interface ParsedKustomization {
  references: KustomizationReference[];
  problems: Problem[];
  /** `kind: Component`: a piece other kustomizations take in (components:), never an application of its own. */
  component?: true;
}

/** Fields holding paths of files or kustomization folders (kustomize's types/kustomization.go). */
const FOLDER_LISTS = ['resources', 'bases', 'components'] as const;
const FILE_LISTS = ['crds', 'patchesStrategicMerge', 'configurations'] as const;
const PATH_ITEMS = ['patches', 'patchesJson6902', 'replacements'] as const;
const GENERATORS = ['configMapGenerator', 'secretGenerator'] as const;
/** Plugin configurations: kustomize runs exec and container plugins only when told to, and Flotilla never tells it. */
const PLUGIN_LISTS = ['generators', 'transformers', 'validators'] as const;

/**
 * What a kustomization reads beyond itself, parsed without running kustomize (pure), so the render can copy exactly
 * those inputs out of the commit and refuse what would need the network: a remote base or resource (a URL, a
 * `github.com/…` path, `?ref=`), an OCI or Helm chart, kustomize's `helmCharts` (which fetch charts).
 */
export function parseKustomization(file: string, text: string): ParsedKustomization {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const problems: Problem[] = [];
  const at = (node: Node | null | undefined) => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return { line: pos.line, column: pos.col };
  };
  const problem = (node: Node | null | undefined, code: Problem['code'], message: string, fix: string) =>
    problems.push({ file, ...at(node), code, severity: 'error', message, fix });
  if (doc.errors.length > 0) {
    const pos = lines.linePos(doc.errors[0]!.pos[0]);
    problem(null, 'YAML_SYNTAX', doc.errors[0]!.message.split('\n')[0]!, 'fix the YAML of the kustomization');
    problems[0] = { ...problems[0]!, line: pos.line, column: pos.col };
    return { references: [], problems };
  }
  const root = doc.contents;
  if (!isMap(root)) {
    problem(
      root,
      'NOT_AN_OBJECT',
      'a kustomization is a mapping',
      'write apiVersion: kustomize.config.k8s.io/v1beta1, kind: Kustomization and its fields',
    );
    return { references: [], problems };
  }
  // What is checked below must be what kustomize reads. Its Go YAML reader follows aliases and `<<` merge keys and
  // keeps the last of two equal keys, and Go's JSON decoding matches field names ignoring case (`Resources`,
  // `reſources`), so any of those could name a base this parse never saw: they are refused, and fields are matched
  // as Go matches them.
  const ambiguous = ambiguousNodes(doc.contents);
  for (const a of ambiguous) problem(a.node, 'INVALID_VALUE', a.message, a.fix);
  if (ambiguous.length > 0) return { references: [], problems };
  const references: KustomizationReference[] = [];
  const add = (node: Node | null | undefined, folderAllowed: boolean, field: string) => {
    if (!isScalar(node) || typeof node.value !== 'string') {
      // Go's YAML reader makes a number or a boolean a string path too: what kustomize reads must be checked.
      if (isScalar(node) && node.value !== null)
        problem(
          node,
          'INVALID_VALUE',
          `${field} names ${String(node.value)}, which is not written as a path`,
          'quote the path',
        );
      return;
    }
    const path = node.value.trim();
    const remote = remoteReason(path);
    if (remote) {
      problem(
        node,
        'INVALID_VALUE',
        `${field} names ${remote} (${path}): a render reads only the commit, never the network`,
        'commit it into the repository (a folder beside this one) and name it by its relative path',
      );
      return;
    }
    references.push({ path, folderAllowed, ...at(node) });
  };
  const field = (name: string) => fieldOf(root, name);
  for (const name of FOLDER_LISTS) {
    const value = field(name)?.value;
    if (isSeq(value)) for (const item of value.items) add(item as Node, true, name);
  }
  for (const name of FILE_LISTS) {
    const value = field(name)?.value;
    // patchesStrategicMerge also takes inline patches: only a one-line value is a path.
    if (isSeq(value))
      for (const item of value.items)
        if (isScalar(item) && typeof item.value === 'string' && !item.value.includes('\n')) add(item, false, name);
  }
  for (const name of PATH_ITEMS) {
    const value = field(name)?.value;
    if (!isSeq(value)) continue;
    for (const item of value.items) if (isMap(item)) add(fieldOf(item, 'path')?.value as Node, false, `${name}[].path`);
  }
  for (const name of GENERATORS) {
    const value = field(name)?.value;
    if (!isSeq(value)) continue;
    for (const item of value.items) {
      if (!isMap(item)) continue;
      for (const list of ['files', 'envs']) {
        const files = fieldOf(item, list)?.value;
        if (!isSeq(files)) continue;
        for (const f of files.items) {
          if (!isScalar(f) || typeof f.value !== 'string') continue;
          // `key=path` names the key the file's content gets.
          const eq = list === 'files' ? f.value.indexOf('=') : -1;
          const path = eq >= 0 ? f.value.slice(eq + 1) : f.value;
          const outside = remoteReason(path);
          if (outside)
            problem(
              f,
              'INVALID_VALUE',
              `${name}[].${list} names ${outside} (${path}): a render reads only the commit`,
              'commit the file beside the kustomization and name it by its relative path',
            );
          else references.push({ path, folderAllowed: false, ...at(f) });
        }
      }
      add(fieldOf(item, 'env')?.value as Node, false, `${name}[].env`);
    }
  }
  for (const name of PLUGIN_LISTS) {
    const value = field(name)?.value;
    if (!isSeq(value)) continue;
    for (const item of value.items) {
      if (!isScalar(item) || typeof item.value !== 'string') continue;
      // kustomize takes an entry that reads as objects for an inline configuration, and any other for a path
      // (api/internal/target/kusttarget.go configureExternalTransformers): what an inline one loads is checked as a
      // file's is, and its text as a path too (a hand-made tree can hold a file of that name).
      const inline = inlinePluginConfigs(file, item.value);
      if (inline === undefined) {
        add(item, true, name);
        continue;
      }
      if (remoteReason(item.value.trim())) add(item, true, name);
      if (inline === 'unreadable')
        problem(
          item,
          'INVALID_VALUE',
          `${name} holds ${JSON.stringify(item.value.slice(0, 80))}, which kustomize may read as an inline configuration this check cannot read`,
          'write the configuration in a file beside the kustomization and name that file',
        );
      else
        for (const load of inline)
          problem(item, 'INVALID_VALUE', outsideLoadMessage(`${name} (inline)`, load), OUTSIDE_LOAD_FIX);
    }
  }
  const openapi = field('openapi')?.value;
  if (isMap(openapi)) add(fieldOf(openapi, 'path')?.value as Node, false, 'openapi.path');
  const helm = field('helmCharts') ?? field('helmChartInflationGenerator');
  if (helm)
    problem(
      helm.key as Node,
      'INVALID_VALUE',
      `${(helm.key as { value: string }).value} makes kustomize fetch and inflate Helm charts, which needs the network`,
      'make the chart a Helm unit of its own (a folder with Chart.yaml, its dependencies vendored under charts/) and select its objects with a policy',
    );
  const kind = field('kind')?.value;
  const component = isScalar(kind) && kind.value === 'Component';
  return { references, problems, ...(component ? { component: true as const } : {}) };
}

/** A field name as Go's encoding/json compares it: case folded, `ſ` as `s` and the Kelvin sign as `k`. */
export function foldName(name: string): string {
  let out = '';
  for (const ch of name) out += ch.charCodeAt(0) < 0x80 ? ch.toUpperCase() : ch.toLowerCase().toUpperCase();
  return out;
}

/** The pair of `map` kustomize decodes into the field `name`. */
function fieldOf(map: YAMLMap, name: string) {
  const folded = foldName(name);
  return map.items.find((p) => isScalar(p.key) && typeof p.key.value === 'string' && foldName(p.key.value) === folded);
}

/** Aliases, merge keys and keys written twice (as Go's JSON decoding compares them) anywhere in the kustomization. */
function ambiguousNodes(contents: unknown): { node: Node; message: string; fix: string }[] {
  const out: { node: Node; message: string; fix: string }[] = [];
  // An explicit tag (`!!binary`, `!!int`) makes the value something this parse does not read as kustomize does: a
  // `!!binary` path is bytes here and text to Go, so it would name a folder never checked.
  const tagged = (node: Node) => {
    if (node.tag && node.tag !== 'tag:yaml.org,2002:str')
      out.push({
        node,
        message: `the tag ${node.tag.replace('tag:yaml.org,2002:', '!!')} makes kustomize read a value this check cannot`,
        fix: 'write the value out as plain text',
      });
  };
  visit(contents as Node, {
    Scalar(_, node) {
      tagged(node);
    },
    Seq(_, node) {
      tagged(node);
    },
    Alias(_, node) {
      out.push({
        node: node as Node,
        message: `the alias *${node.source} makes kustomize read a value written elsewhere in the kustomization`,
        fix: 'write the value out where it is used',
      });
    },
    Map(_, map) {
      tagged(map);
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (key === '<<')
          out.push({
            node: pair.key,
            message: 'a `<<` merge key makes kustomize read fields this mapping does not write out',
            fix: 'write the fields out in the mapping',
          });
        else if (seen.has(foldName(key)))
          out.push({
            node: pair.key,
            message: `${key} is written twice in one mapping (kustomize compares field names ignoring case and keeps one of them)`,
            fix: `keep one ${key}`,
          });
        seen.add(foldName(key));
      }
    },
  });
  return out;
}

/** Why kustomize would fetch this reference over the network, or undefined for a local path. */
export function remoteReason(path: string): string | undefined {
  if (path.startsWith('/') || path.startsWith('~')) return 'a path outside the repository';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return 'a URL';
  if (/^git@|^git::|^ssh:|^oci:/i.test(path)) return 'a remote repository';
  if (/[?&](ref|version|submodules|timeout)=/.test(path)) return 'a remote repository';
  if (/^(github\.com|gitlab\.com|bitbucket\.org)\//i.test(path)) return 'a remote repository';
  return undefined;
}

/**
 * kustomize's built-in generators and transformers whose configuration names files it loads, with those fields
 * (api/internal/builtins: each passes them to its loader's Load, which GETs an http(s) URL). HelmChartInflationGenerator
 * is left out: without `--enable-helm`, which a render never gives, it fails before it loads anything.
 */
const LOADED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  PatchTransformer: ['path'],
  PatchJson6902Transformer: ['path'],
  PatchStrategicMergeTransformer: ['paths'],
  ReplacementTransformer: ['replacements'],
  ConfigMapGenerator: ['files', 'envs', 'env'],
  SecretGenerator: ['files', 'envs', 'env'],
  ValueAddTransformer: ['targetFilePath'],
};

/** A file a plugin configuration makes kustomize load from outside the commit, where the configuration says so. */
export interface OutsideLoad {
  /** The field's path in the configuration, for locating its line. */
  at: (string | number)[];
  kind: string;
  /** The field as kustomize names it (`path`, `replacements[].path`, `files`). */
  field: string;
  value: string;
  /** Why it is outside: a URL, a remote repository, a path outside the repository (parseKustomization's remoteReason). */
  reason: string;
}

/**
 * What a built-in plugin's configuration (a document of a file named in `generators:`, `transformers:` or
 * `validators:`, or one written inline there) would make kustomize load from outside the commit (pure). The
 * kustomization's own fields are checked by parseKustomization; these are read by the plugin when it is configured,
 * so a URL there reaches the network (and a loopback one reaches the host's own services: Go's HTTP client takes no
 * proxy for those). The plugin is found by kind alone, and fields are matched as Go's JSON decoding matches them.
 */
export function pluginConfigOutsideLoads(config: unknown): OutsideLoad[] {
  if (!isObject(config)) return [];
  const kind = fieldsOf(config, 'kind').find((k) => typeof k.value === 'string' && LOADED_FIELDS[k.value]);
  if (!kind) return [];
  const fields = LOADED_FIELDS[kind.value as string]!;
  const out: OutsideLoad[] = [];
  const check = (at: (string | number)[], field: string, raw: unknown, keyed = false) => {
    if (typeof raw !== 'string') return;
    // `key=path` names the key a generated entry gets.
    const eq = keyed ? raw.indexOf('=') : -1;
    const value = (eq >= 0 ? raw.slice(eq + 1) : raw).trim();
    // An inline patch (PatchStrategicMergeTransformer's paths take those too) is no path.
    if (value.includes('\n')) return;
    const reason = remoteReason(value);
    if (reason) out.push({ at, kind: kind.value as string, field, value, reason });
  };
  for (const name of fields)
    for (const { key, value } of fieldsOf(config, name)) {
      if (name === 'replacements') {
        if (Array.isArray(value))
          value.forEach((r, i) => {
            for (const path of isObject(r) ? fieldsOf(r, 'path') : [])
              check([key, i, path.key], 'replacements[].path', path.value);
          });
      } else if (Array.isArray(value)) value.forEach((v, i) => check([key, i], name, v, name === 'files'));
      else check([key], name, value);
    }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every field Go's JSON decoding would read as `name` (it keeps the last of those it meets; each is checked). */
function fieldsOf(map: Record<string, unknown>, name: string): { key: string; value: unknown }[] {
  const folded = foldName(name);
  return Object.keys(map)
    .filter((k) => foldName(k) === folded)
    .map((key) => ({ key, value: map[key] }));
}

/**
 * The configurations an entry of `generators:`, `transformers:` or `validators:` holds inline, with what each loads
 * from outside the commit; undefined when the entry is a path, 'unreadable' when it may be YAML kustomize reads and
 * this parse does not (pure).
 */
function inlinePluginConfigs(file: string, entry: string): OutsideLoad[] | 'unreadable' | undefined {
  const parsed = parseDocuments(`${file}.inline.yaml`, new TextEncoder().encode(entry));
  if (parsed.problems.some((p) => p.severity === 'error')) return entry.includes(':') ? 'unreadable' : undefined;
  if (!parsed.documents.some((d) => isObject(d.value))) return undefined;
  return parsed.documents.flatMap((d) => pluginConfigOutsideLoads(d.value));
}

/** A problem's message for a plugin configuration's field that loads from outside the commit. */
export function outsideLoadMessage(where: string, load: OutsideLoad): string {
  return `${where}: ${load.kind}'s ${load.field} names ${load.reason} (${load.value}), which kustomize would load when it configures the plugin: a render reads only the commit, never the network`;
}

export const OUTSIDE_LOAD_FIX =
  'commit the file beside the kustomization and name it by its relative path (or write the patch inline)';
