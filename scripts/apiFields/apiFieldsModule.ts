// Builds src/api/apiFields.generated.ts: the field names of every built-in Kubernetes kind, read from the models
// @kubernetes/client-node generates from Kubernetes' OpenAPI document. kube-apiserver decodes these kinds into Go
// types and drops or refuses (kubectl's strict validation) a field the type does not declare; the table lets
// `flotilla validate` and the member emulator say so without loading the client's 750 model classes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A client-node model class, as its generated code describes it. */
export interface ModelClass {
  attributeTypeMap?: readonly { baseName: string; type: string; format?: string }[];
}

/** The API prefix client-node gives a group's classes and API files: apps → Apps, rbac.authorization.k8s.io → RbacAuthorization. */
export function groupPrefix(group: string): string {
  if (group === '') return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split('.')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

const VERSION = /^(V\d+(?:alpha\d+|beta\d+)?)/;

/**
 * The module's text. `apiFiles` maps each `<Prefix><Version>Api.d.ts` file name to its text: a kind belongs to the
 * group and version whose API file names its class.
 */
export function apiFieldsModule(
  models: Record<string, unknown>,
  apiFiles: ReadonlyMap<string, string>,
  source: string,
): string {
  const classes = new Map<string, ModelClass>();
  for (const [name, value] of Object.entries(models))
    if (typeof value === 'function' && Array.isArray((value as ModelClass).attributeTypeMap))
      classes.set(name, value as ModelClass);
  const groups = groupsByPrefix();
  const kinds = new Map<string, string>();
  for (const [file, text] of [...apiFiles].sort(([a], [b]) => a.localeCompare(b))) {
    const m = /^([A-Z][A-Za-z]*?)(V\d+(?:alpha\d+|beta\d+)?)Api\.d\.ts$/.exec(file);
    if (!m) continue;
    const [, prefix, version] = m as unknown as [string, string, string];
    const group = groups.get(prefix!);
    if (group === undefined) continue;
    for (const name of new Set(text.match(/\b[A-Z][A-Za-z0-9]*\b/g) ?? [])) {
      const cls = classes.get(name);
      // A kind is a type with apiVersion, kind and an object's metadata (Status and lists have list metadata).
      const attributes = cls?.attributeTypeMap ?? [];
      const metadata = attributes.find((a) => a.baseName === 'metadata');
      if (!attributes.some((a) => a.baseName === 'kind') || metadata?.type !== 'V1ObjectMeta') continue;
      const kind = name.startsWith(`${prefix}${version}`)
        ? name.slice(prefix!.length + version!.length)
        : name.startsWith(version!)
          ? name.slice(version!.length)
          : undefined;
      if (!kind || !/^[A-Z]/.test(kind)) continue;
      const apiVersion = group ? `${group}/${version!.toLowerCase()}` : version!.toLowerCase();
      kinds.set(`${apiVersion}/${kind}`, name);
    }
  }
  const types = new Map<string, string>();
  const visit = (name: string) => {
    if (types.has(name)) return;
    const cls = classes.get(name);
    if (!cls?.attributeTypeMap) return;
    types.set(name, '');
    const fields = cls.attributeTypeMap.map(({ baseName, type, format }) => {
      const ref = nestedType(type, classes);
      if (ref) visit(ref.name);
      const scalar = scalarType(type, format);
      return ref ? `${baseName}:${ref.shape}${ref.name}` : scalar ? `${baseName}=${scalar}` : baseName;
    });
    types.set(name, fields.join(' '));
  };
  for (const name of kinds.values()) visit(name);
  const record = (entries: Iterable<[string, string]>) =>
    [...entries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
      .join('\n');
  return `// Generated from ${source} by scripts/apiFields/generate.ts (npm run generate:api-fields): do not edit.
// kube-apiserver decodes these kinds into Go types: a field its type does not declare is dropped, or refused under
// kubectl's strict field validation.

/** What the table was read from. */
export const API_FIELDS_SOURCE = ${JSON.stringify(source)};

/** \`apiVersion/Kind\` of each built-in kind → the type its objects decode into. */
export const KIND_TYPES: Readonly<Record<string, string>> = {
${record(kinds)}
};

/**
 * Each type's fields, space-separated: \`name\` holds a value, \`name=bool\` (\`int32\`, \`int64\`, \`float64\`) a value of
 * that Go type, \`name:T\` an object of type T, \`name:[T\` a list of them, \`name:{T\` a map of them.
 */
export const TYPE_FIELDS: Readonly<Record<string, string>> = {
${record(types)}
};
`;
}

/** The Go type of a boolean or numeric attribute, which kube-apiserver's decoding holds a value to; none for others. */
function scalarType(type: string, format: string | undefined): 'bool' | 'int32' | 'int64' | 'float64' | undefined {
  if (type === 'boolean') return 'bool';
  if (type !== 'number') return undefined;
  return format === 'int32' ? 'int32' : format === 'int64' ? 'int64' : 'float64';
}

/** The class an attribute's value (or its list's items, or its map's values) is an object of; none for plain values. */
function nestedType(
  type: string,
  classes: ReadonlyMap<string, ModelClass>,
): { shape: '' | '[' | '{'; name: string } | undefined {
  const list = /^Array<([A-Za-z0-9]+)>$/.exec(type);
  const map = /^\{ \[key: string\]: ([A-Za-z0-9]+); \}$/.exec(type);
  const [shape, name] = list ? (['[', list[1]!] as const) : map ? (['{', map[1]!] as const) : (['', type] as const);
  return classes.get(name)?.attributeTypeMap ? { shape, name } : undefined;
}

/** API group of each client-node API prefix, for the groups kube-apiserver serves from Go types. */
function groupsByPrefix(): Map<string, string> {
  const groups = [
    '',
    'admissionregistration.k8s.io',
    'apiextensions.k8s.io',
    'apiregistration.k8s.io',
    'apps',
    'authentication.k8s.io',
    'authorization.k8s.io',
    'autoscaling',
    'batch',
    'certificates.k8s.io',
    'coordination.k8s.io',
    'discovery.k8s.io',
    'events.k8s.io',
    'flowcontrol.apiserver.k8s.io',
    'internal.apiserver.k8s.io',
    'networking.k8s.io',
    'node.k8s.io',
    'policy',
    'rbac.authorization.k8s.io',
    'resource.k8s.io',
    'scheduling.k8s.io',
    'storage.k8s.io',
    'storagemigration.k8s.io',
  ];
  return new Map(groups.map((g) => [groupPrefix(g), g]));
}

/** The installed client-node's model classes and API files. */
export async function installedClientNode(root: string): Promise<{
  models: Record<string, unknown>;
  apiFiles: Map<string, string>;
  source: string;
}> {
  const base = path.join(root, 'node_modules/@kubernetes/client-node');
  const models = (await import(path.join(base, 'dist/gen/models/ObjectSerializer.js'))) as Record<string, unknown>;
  const apis = path.join(base, 'dist/gen/apis');
  const apiFiles = new Map(
    readdirSync(apis)
      .filter((f) => VERSION.test(f.replace(/^[A-Z][a-z]+(?:[A-Z][a-z]+)*?(?=V\d)/, '')) && f.endsWith('Api.d.ts'))
      .map((f) => [f, readFileSync(path.join(apis, f), 'utf8')]),
  );
  const { version } = JSON.parse(readFileSync(path.join(base, 'package.json'), 'utf8')) as { version: string };
  const spec = /OpenAPI spec version: (\S+)/.exec(
    readFileSync(path.join(base, 'dist/gen/models/V1Pod.js'), 'utf8'),
  )?.[1];
  return { models, apiFiles, source: `@kubernetes/client-node ${version} (Kubernetes ${spec ?? 'unknown'})` };
}

/**
 * The operations client-node's API file of a built-in kind (`apps/v1/Deployment`) offers on its objects, each
 * `create`, `list`, `read` or `delete` with `Namespaced` before the kind when the kind is served in namespaces
 * (`createNamespacedDeployment`; `createValidatingAdmissionPolicy` for a cluster-scoped kind). Kubernetes' OpenAPI
 * document names them after the resource's paths, so they say where kube-apiserver serves it and what it keeps.
 */
export function kindOperations(apiFiles: ReadonlyMap<string, string>, key: string): Set<string> {
  const slash = key.lastIndexOf('/');
  const [apiVersion, kind] = [key.slice(0, slash), key.slice(slash + 1)];
  const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
  const text = apiFiles.get(`${groupPrefix(group)}${version[0]!.toUpperCase()}${version.slice(1)}Api.d.ts`) ?? '';
  const found = text.matchAll(new RegExp(`\\b(?:create|list|read|delete)(?:Namespaced)?${kind}(?![A-Za-z])`, 'g'));
  return new Set([...found].map((m) => m[0].slice(0, m[0].length - kind.length)));
}
