import { podSpecAt } from './podSpecPaths.ts';

// Fields the Kubernetes API types as strings (or maps and lists of strings) that YAML readily fills with something
// else: `version: 1.0` in labels, `prometheus.io/port: 9090` in annotations, `port: 8080` in a ConfigMap, `gpu: true`
// in a nodeSelector, `args: [--port, 8080]`. kubectl sends them as JSON numbers and booleans, and kube-apiserver
// cannot decode the object into its Go type at all (a 400 before any validation), Karmada's as every member's.

/** A string-typed field of a built-in kind holding a value that is not a string. */
export interface NonStringValue {
  /** From the manifest's root to the value. */
  path: (string | number)[];
  value: unknown;
  /** The Go struct that declares the field, as the API server's decode error names it. */
  struct: string;
  /** The field for people: `label version`, `env DEBUG of container app`, `argument 2 of container app`. */
  what: string;
}

/**
 * API groups kube-apiserver serves from Go types (everything else is a custom resource, decoded as unstructured but
 * for its metadata, which metadataShapes.ts checks): only these refuse a non-string in their spec or data.
 */
const TYPED_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'autoscaling',
  'policy',
  'networking.k8s.io',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'node.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'certificates.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
]);

/** Whether kube-apiserver serves `apiVersion`'s group from Go types, rather than as custom resources. */
export function isTypedGroup(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  return TYPED_GROUPS.has(slash < 0 ? '' : apiVersion.slice(0, slash));
}

/** Kinds whose spec.selector is a LabelSelector (matchLabels a map of strings). */
const SELECTOR_KINDS = new Set([
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/ReplicaSet',
  'apps/DaemonSet',
  'batch/Job',
  'policy/PodDisruptionBudget',
]);

/** Every string-typed field of the object that holds something else, in document order; none for custom resources. */
export function nonStringValues(
  manifest: unknown,
  apiVersion: unknown = (manifest as { apiVersion?: unknown } | null)?.apiVersion,
  kind: unknown = (manifest as { kind?: unknown } | null)?.kind,
): NonStringValue[] {
  if (!isObject(manifest) || typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  if (!TYPED_GROUPS.has(group)) return [];
  const out: NonStringValue[] = [];
  objectMeta(manifest.metadata, ['metadata'], out);
  const groupKind = `${group}/${kind}`;
  if (groupKind === '/ConfigMap') stringMap(manifest.data, ['data'], 'ConfigMap', 'data key', out);
  if (groupKind === '/Secret') {
    stringMap(manifest.data, ['data'], 'Secret', 'data key', out);
    stringMap(manifest.stringData, ['stringData'], 'Secret', 'stringData key', out);
  }
  const spec = manifest.spec;
  if (isObject(spec)) {
    if (groupKind === '/Service') stringMap(spec.selector, ['spec', 'selector'], 'ServiceSpec', 'selector', out);
    if (SELECTOR_KINDS.has(groupKind) && isObject(spec.selector))
      stringMap(spec.selector.matchLabels, ['spec', 'selector', 'matchLabels'], 'LabelSelector', 'selector label', out);
    if (groupKind === 'coordination.k8s.io/Lease')
      for (const field of ['holderIdentity', 'strategy', 'preferredHolder']) {
        const value = spec[field];
        if (value !== undefined && value !== null && typeof value !== 'string')
          out.push({ path: ['spec', field], value, struct: 'LeaseSpec', what: `Lease ${field}` });
      }
    if (groupKind === 'batch/CronJob' && isObject(spec.jobTemplate))
      objectMeta(spec.jobTemplate.metadata, ['spec', 'jobTemplate', 'metadata'], out, 'job template ');
  }
  const pod = podSpecAt(manifest, apiVersion, kind);
  if (pod) {
    // The pod template's metadata sits beside its spec (a Pod's own is the object's, walked above).
    if (pod.path.length > 1) {
      const template = [...pod.path.slice(0, -1), 'metadata'];
      objectMeta(at(manifest, template), template, out, 'pod template ');
    }
    stringMap(pod.spec.nodeSelector, [...pod.path, 'nodeSelector'], 'PodSpec', 'node selector', out);
    for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
      const containers = pod.spec[list];
      if (!Array.isArray(containers)) continue;
      containers.forEach((container, c) => {
        if (!isObject(container)) return;
        const path = [...pod.path, list, c];
        const named = `container ${typeof container.name === 'string' ? container.name : `#${c + 1}`}`;
        for (const field of ['command', 'args'] as const) {
          const items = container[field];
          if (!Array.isArray(items)) continue;
          items.forEach((item, i) => {
            if (typeof item !== 'string')
              out.push({
                path: [...path, field, i],
                value: item,
                struct: 'Container',
                what: `${field === 'command' ? 'command word' : 'argument'} ${i + 1} of ${named}`,
              });
          });
        }
        const env = container.env;
        if (!Array.isArray(env)) return;
        env.forEach((variable, e) => {
          if (!isObject(variable)) return;
          const value = variable.value;
          if (value === undefined || value === null || typeof value === 'string') return;
          const name = typeof variable.name === 'string' ? variable.name : `#${e + 1}`;
          out.push({ path: [...path, 'env', e, 'value'], value, struct: 'EnvVar', what: `env ${name} of ${named}` });
        });
      });
    }
  }
  return out;
}

/** Labels and annotations (maps of strings) and finalizers (a list of them) of one ObjectMeta. */
function objectMeta(metadata: unknown, path: (string | number)[], out: NonStringValue[], whose = ''): void {
  if (!isObject(metadata)) return;
  stringMap(metadata.labels, [...path, 'labels'], 'ObjectMeta', `${whose}label`, out);
  stringMap(metadata.annotations, [...path, 'annotations'], 'ObjectMeta', `${whose}annotation`, out);
  const finalizers = metadata.finalizers;
  if (Array.isArray(finalizers))
    finalizers.forEach((f, i) => {
      if (typeof f !== 'string')
        out.push({
          path: [...path, 'finalizers', i],
          value: f,
          struct: 'ObjectMeta',
          what: `${whose}finalizer ${i + 1}`,
        });
    });
}

function stringMap(map: unknown, path: (string | number)[], struct: string, what: string, out: NonStringValue[]): void {
  if (!isObject(map)) return;
  // null is no value: the decoder leaves the entry empty, as kubectl sends it.
  for (const [key, value] of Object.entries(map))
    if (value !== null && typeof value !== 'string')
      out.push({ path: [...path, key], value, struct, what: `${what} ${key}` });
}

/**
 * kube-apiserver's decode error for the first such value (Go's encoding/json: the value's JSON type, the declaring
 * struct, the field's path without list indexes), or undefined when every string field holds a string.
 */
export function stringFieldDecodeError(
  kind: string,
  version: string,
  found: readonly NonStringValue[],
): string | undefined {
  const [first] = found;
  if (!first) return undefined;
  const { path, value, struct } = first;
  const jsonType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  // A map's entries are named by their map; a list's items by their list.
  const fields = path.slice(0, -1).filter((step) => typeof step === 'string');
  if (typeof path[path.length - 1] === 'string' && !isMapEntry(first)) fields.push(path[path.length - 1] as string);
  return `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonType} into Go struct field ${struct}.${fields.join('.')} of type string`;
}

/** A value of a map of strings (labels, data, selectors) rather than a struct's own field (an env var's value). */
function isMapEntry(v: NonStringValue): boolean {
  return v.struct !== 'EnvVar' && v.struct !== 'LeaseSpec';
}

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let here = value;
  for (const step of path) here = isObject(here) ? here[step as string] : undefined;
  return here;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
