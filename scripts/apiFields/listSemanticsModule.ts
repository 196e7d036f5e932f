// Builds src/api/listSemantics.generated.ts: how kube-apiserver merges each list field of the built-in types. Strategic
// merge patch reads a field's Go struct tags (patchStrategy, patchMergeKey); server-side apply reads its OpenAPI list
// type (the +listType / +listMapKey markers, or, where a field has none, its patch strategy, as kube-openapi's
// schemaconv does). Neither is in the models client-node generates, so they are read from the Go source of k8s.io/api
// (and k8s.io/apimachinery's meta/v1, k8s.io/apiextensions-apiserver's apiextensions/v1).

/** One Go package's source: its API version directory (`core/v1`, `meta/v1`) and the text of its .go files. */
export interface GoPackage {
  dir: string;
  files: readonly string[];
}

interface GoField {
  json: string;
  type: string;
  patchStrategy: string;
  patchMergeKey: string;
  listType: string;
  listMapKeys: string[];
  defaultValue: string | undefined;
  /** The json tag says omitempty: an empty slice or map is left out of the object Go writes. */
  omitEmpty: boolean;
}

const NO_RULES: GoField = {
  json: '',
  type: '',
  patchStrategy: '',
  patchMergeKey: '',
  listType: '',
  listMapKeys: [],
  defaultValue: undefined,
  omitEmpty: false,
};

/** The structs a package declares, by Go type name, each with its fields in order. */
export function goStructs(files: readonly string[]): Map<string, GoField[]> {
  const structs = new Map<string, GoField[]>();
  for (const text of files) {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const start = /^type (\w+) struct \{\s*$/.exec(lines[i]!);
      if (!start) continue;
      const fields: GoField[] = [];
      let markers: string[] = [];
      for (i++; i < lines.length && !/^\}/.test(lines[i]!); i++) {
        const line = lines[i]!;
        const marker = /^\s*\/\/\s*\+(\S+)/.exec(line);
        if (marker) {
          markers.push(marker[1]!);
          continue;
        }
        if (/^\s*\/\//.test(line)) continue;
        // An embedded struct (`EphemeralContainerCommon \`json:",inline"\``) lends its fields.
        const inline = /^\s+(\w+)\s+`json:",inline"[^`]*`/.exec(line);
        if (inline) fields.push({ ...NO_RULES, json: '', type: inline[1]! });
        const field = /^\s+\w+\s+(\S+)\s+`([^`]*)`/.exec(line);
        if (field) {
          const tag = (key: string) => new RegExp(`\\b${key}:"([^"]*)"`).exec(field[2]!)?.[1] ?? '';
          const [json, ...jsonOptions] = tag('json').split(',') as [string, ...string[]];
          const marked = (name: string) =>
            markers.filter((m) => m.startsWith(`${name}=`)).map((m) => m.slice(name.length + 1));
          if (json && json !== '-')
            fields.push({
              json,
              type: field[1]!,
              patchStrategy: tag('patchStrategy'),
              patchMergeKey: tag('patchMergeKey'),
              listType: marked('listType')[0] ?? '',
              listMapKeys: marked('listMapKey'),
              defaultValue: marked('default')[0],
              omitEmpty: jsonOptions.includes('omitempty'),
            });
        }
        markers = [];
      }
      structs.set(start[1]!, fields);
    }
  }
  const flatten = (fields: GoField[], seen: Set<string>): GoField[] =>
    fields.flatMap((f) =>
      f.json !== '' ? [f] : seen.has(f.type) ? [] : flatten(structs.get(f.type) ?? [], new Set([...seen, f.type])),
    );
  for (const [name, fields] of structs) structs.set(name, flatten(fields, new Set([name])));
  return structs;
}

/** `merge:<key>` (items merged on key), `merge` (a merged set of scalars) or `replace`, as strategic merge patch reads it. */
function patchRule(field: GoField): string {
  if (!field.patchStrategy.split(',').includes('merge')) return 'replace';
  return field.patchMergeKey ? `merge:${field.patchMergeKey}` : 'merge';
}

/** `map:<keys>`, `set` or `atomic`, as server-side apply reads it. */
function applyRule(field: GoField, patch: string): string {
  if (field.listType === 'map') return `map:${field.listMapKeys.join(',')}`;
  if (field.listType === 'set' || field.listType === 'atomic') return field.listType;
  if (patch === 'merge') return 'set';
  if (patch.startsWith('merge:')) return `map:${patch.slice('merge:'.length)}`;
  return 'atomic';
}

const isList = (goType: string) => goType.startsWith('[]') && goType !== '[]byte';

const SCALARS = /^(?:string|bool|u?int(?:8|16|32|64)?|float(?:32|64)|\[\]byte)$/;

/**
 * Named Go types whose zero value omitempty leaves out: slices and maps (`type ResourceList map[...]`) and scalars
 * (`type PullPolicy string`), by name.
 */
export function goOmittableTypes(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of files)
    for (const m of text.matchAll(/^type (\w+) (\S+)\s*$/gm))
      if (m[2]!.startsWith('[]') || m[2]!.startsWith('map[') || SCALARS.test(m[2]!)) names.add(m[1]!);
  return names;
}

/**
 * Whether omitempty leaves a Go field of this type out when it is zero: a slice, a map or a scalar, named
 * (`v1.ResourceList`) or not; never a pointer (its empty value is set) nor a struct (never empty to encoding/json).
 */
function isOmittable(goType: string, named: ReadonlySet<string>): boolean {
  if (goType.startsWith('*')) return false;
  return (
    goType.startsWith('[]') ||
    goType.startsWith('map[') ||
    SCALARS.test(goType) ||
    named.has(goType.replace(/^\w+\./, ''))
  );
}

/** The client-node model name of Go type `name` in `dir`: `V1ServicePort`, or `CoreV1EndpointPort` where names clash. */
function modelName(
  dir: string,
  name: string,
  fields: readonly GoField[],
  typeFields: Readonly<Record<string, string>>,
): string | undefined {
  const [group, version] = dir.split('/') as [string, string];
  const suffix = `${version[0]!.toUpperCase()}${version.slice(1)}${name}`;
  const declares = (model: string) => {
    const declared = new Set((typeFields[model] ?? '').split(' ').map((entry) => entry.split(':')[0]));
    // The Go source may be a release ahead of client-node: most fields, and every list field, are enough.
    const lists = fields.filter((f) => isList(f.type));
    return (
      lists.every((f) => declared.has(f.json)) && fields.filter((f) => declared.has(f.json)).length * 2 >= fields.length
    );
  };
  const prefixed = Object.keys(typeFields).filter(
    (model) => model.endsWith(suffix) && model.toLowerCase().startsWith(group) && model !== suffix,
  );
  return [...prefixed, suffix].find((model) => model in typeFields && declares(model));
}

export function listSemanticsModule(
  packages: readonly GoPackage[],
  typeFields: Readonly<Record<string, string>>,
  source: string,
): string {
  const lists = new Map<string, string>();
  const keyDefaults = new Map<string, string>();
  const omitted = new Map<string, string>();
  const named = new Set(packages.flatMap((pkg) => [...goOmittableTypes(pkg.files)]));
  for (const pkg of packages) {
    const structs = goStructs(pkg.files);
    for (const [name, fields] of structs) {
      const model = modelName(pkg.dir, name, fields, typeFields);
      if (!model) continue;
      const empties = fields.filter((f) => f.omitEmpty && isOmittable(f.type, named)).map((f) => f.json);
      if (empties.length > 0) omitted.set(model, empties.join(' '));
      const entries: string[] = [];
      for (const field of fields) {
        if (!isList(field.type)) continue;
        const patch = patchRule(field);
        const apply = applyRule(field, patch);
        if (patch !== 'replace' || apply !== 'atomic') entries.push(`${field.json}=${patch}/${apply}`);
        if (!apply.startsWith('map:')) continue;
        // A key field left out of an applied item takes its declared default (a port's protocol is TCP).
        const item = structs.get(field.type.slice(2).replace(/^\*/, ''));
        const itemModel = item && modelName(pkg.dir, field.type.slice(2).replace(/^\*/, ''), item, typeFields);
        for (const key of apply.slice('map:'.length).split(',')) {
          const declared = item?.find((f) => f.json === key)?.defaultValue;
          if (itemModel && declared?.startsWith('"')) {
            const own = keyDefaults.get(itemModel);
            const entry = `${key}=${JSON.parse(declared) as string}`;
            if (!own?.split(' ').includes(entry)) keyDefaults.set(itemModel, own ? `${own} ${entry}` : entry);
          }
        }
      }
      if (entries.length > 0) lists.set(model, entries.join(' '));
    }
  }
  const record = (entries: Iterable<[string, string]>) =>
    [...entries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
      .join('\n');
  return `// Generated from ${source} by scripts/apiFields/generateListSemantics.ts (npm run generate:list-semantics): do not edit.
// How kube-apiserver merges the list fields of the built-in types (the client-node model names of TYPE_FIELDS).

/** What the table was read from. */
export const LIST_SEMANTICS_SOURCE = ${JSON.stringify(source)};

/**
 * Each type's list fields that are not replaced whole, space-separated \`field=<patch>/<apply>\`. \`<patch>\` is how
 * strategic merge patch merges it: \`merge:<key>\` item by item on key, \`merge\` as a set of values, \`replace\`.
 * \`<apply>\` is how server-side apply does: \`map:<key>,<key>\`, \`set\` or \`atomic\`.
 */
export const LIST_FIELDS: Readonly<Record<string, string>> = {
${record(lists)}
};

/** The declared defaults of list item fields that key a list, \`field=value\` space-separated (a port's protocol). */
export const LIST_KEY_DEFAULTS: Readonly<Record<string, string>> = {
${record(keyDefaults)}
};

/**
 * Each type's fields tagged omitempty that are slices, maps or scalars (not pointers, not structs), space-separated:
 * empty or zero, Go does not write them back, so an object never shows them as \`[]\`, \`{}\`, \`""\`, 0 or false.
 */
export const OMITTED_WHEN_EMPTY: Readonly<Record<string, string>> = {
${record(omitted)}
};
`;
}
