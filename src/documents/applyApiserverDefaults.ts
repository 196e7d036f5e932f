// The kube-apiserver defaults a resource template before anything reads it (Karmada's detector, interpreter
// and scheduler all see the stored, defaulted object). Flotilla reads templates from Git, so it applies the
// same defaults here, once, right after parsing. Only fields a later Flotilla stage reads are defaulted:
// every other default is the member apiserver's to set, and writing it would make Flotilla own that field
// under server-side apply.

type Obj = Record<string, unknown>;

/**
 * The kube-apiserver's SetDefaults_* for the fields Flotilla reads of a template: policy matching reads
 * labels, the interpreter (Karmada's default/native replica.go) reads replicas, Job parallelism and
 * completions and pod requests. Pure; returns the manifest itself when nothing was absent.
 *
 * - apps/v1 Deployment, StatefulSet, ReplicaSet: spec.replicas 1 (pkg/apis/apps/v1/defaults.go).
 * - batch/v1 Job: completions and parallelism 1 when both are absent, else parallelism 1; metadata.labels
 *   from the pod template's labels when the Job has none (pkg/apis/batch/v1/defaults.go SetDefaults_Job).
 * - v1 Pod: each container's (and init container's) requests default to its limits
 *   (pkg/apis/core/v1/defaults.go SetDefaults_Pod; on a Pod only, not on a pod template).
 * - v1 Namespace: the label kubernetes.io/metadata.name set to its name (SetDefaults_Namespace, and the namespace
 *   strategy's Canonicalize), which selectors of policies and override policies may match.
 */
export function applyApiserverDefaults(manifest: Obj): Obj {
  switch (`${manifest.apiVersion}/${manifest.kind}`) {
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
    case 'apps/v1/ReplicaSet':
      return defaultReplicas(manifest);
    case 'batch/v1/Job':
      return defaultJob(manifest);
    case 'v1/Pod':
      return defaultPodRequests(manifest);
    case 'v1/Namespace':
      return labelNamespaceName(manifest);
    default:
      return manifest;
  }
}

/** Go decodes an absent field and an explicit null alike, as a nil pointer: both are defaulted. */
const absent = (v: unknown) => v === undefined || v === null;

const asObject = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

function defaultReplicas(manifest: Obj): Obj {
  const spec = asObject(manifest.spec) ?? {};
  if (!absent(spec.replicas)) return manifest;
  const { replicas: _null, ...rest } = spec;
  // First, where the apiserver and kubectl print it.
  return { ...manifest, spec: { replicas: 1, ...rest } };
}

function defaultJob(manifest: Obj): Obj {
  let out = manifest;
  const spec = asObject(manifest.spec) ?? {};
  if (absent(spec.parallelism)) {
    const { parallelism: _p, completions, ...rest } = spec;
    out = { ...out, spec: { parallelism: 1, completions: absent(completions) ? 1 : completions, ...rest } };
  }
  const metadata = asObject(manifest.metadata) ?? {};
  const ownLabels = asObject(metadata.labels);
  const templateLabels = asObject(asObject(asObject(spec.template)?.metadata)?.labels);
  if (templateLabels && Object.keys(templateLabels).length > 0 && (!ownLabels || Object.keys(ownLabels).length === 0)) {
    out = { ...out, metadata: { ...metadata, labels: { ...templateLabels } } };
  }
  return out;
}

function defaultPodRequests(manifest: Obj): Obj {
  const spec = asObject(manifest.spec);
  if (!spec) return manifest;
  const containers = withRequestsFromLimits(spec.containers);
  const initContainers = withRequestsFromLimits(spec.initContainers);
  if (containers === spec.containers && initContainers === spec.initContainers) return manifest;
  return {
    ...manifest,
    spec: {
      ...spec,
      ...(containers !== undefined ? { containers } : {}),
      ...(initContainers !== undefined ? { initContainers } : {}),
    },
  };
}

/** The list itself when no container has a limit without its request. */
function withRequestsFromLimits(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  let changed = false;
  const out = list.map((c) => {
    const container = asObject(c);
    const resources = asObject(container?.resources);
    const limits = asObject(resources?.limits);
    if (!container || !resources || !limits) return c;
    const requests = asObject(resources.requests) ?? {};
    const missing = Object.keys(limits).filter((name) => !(name in requests));
    if (missing.length === 0) return c;
    changed = true;
    return {
      ...container,
      resources: {
        ...resources,
        requests: { ...requests, ...Object.fromEntries(missing.map((name) => [name, limits[name]])) },
      },
    };
  });
  return changed ? out : list;
}

function labelNamespaceName(manifest: Obj): Obj {
  const metadata = asObject(manifest.metadata) ?? {};
  const name = metadata.name;
  const labels = asObject(metadata.labels);
  if (typeof name !== 'string' || labels?.[NAMESPACE_NAME_LABEL] === name) return manifest;
  return { ...manifest, metadata: { ...metadata, labels: { ...labels, [NAMESPACE_NAME_LABEL]: name } } };
}
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
