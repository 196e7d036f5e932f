// biome-ignore lint/suspicious/noExplicitAny: walks an untyped Kubernetes manifest by field name
type Obj = Record<string, any>;

/** util.RetainReplicasLabel: set on a template whose replicas the members own (an HPA there). */
export const RETAIN_REPLICAS_LABEL = 'resourcetemplate.karmada.io/retain-replicas';
/** util.RetainReplicasValue: the only value Retain honours. */
export const RETAIN_REPLICAS_VALUE = 'true';

/**
 * Karmada's native Retain (default/native/retain.go, util/lifted/retain.go): before an object that already exists on a
 * member is updated, the fields the member owns are taken from the live object into what is applied, so the update
 * neither undoes them nor trips over immutable fields the member filled in (a Pod's volumes, a Job's generated
 * selector, a Service's clusterIP). Keyed by apiVersion/kind as Karmada keys it. Returns a new object; kinds
 * without a rule, or no live object (a create), return the desired object unchanged.
 */
export function retainForMember(desired: Obj, live: Obj | undefined): Obj {
  if (!live) return desired;
  const out = structuredClone(desired) as Obj;
  const from = live;
  switch (`${desired.apiVersion}/${desired.kind}`) {
    case 'apps/v1/Deployment':
      // The member scales it (an HPA there): its replicas win, and only with the label's exact value.
      if (retainsMemberReplicas(out, from)) setIn(out, ['spec', 'replicas'], from.spec.replicas);
      return out;
    case 'v1/Pod': {
      const spec = (out.spec ??= {});
      // Typed conversion in Karmada: an absent member value clears the desired one.
      for (const f of ['nodeName', 'serviceAccountName', 'volumes']) {
        if (from.spec?.[f] !== undefined) spec[f] = from.spec[f];
        else delete spec[f];
      }
      for (const list of ['containers', 'initContainers']) {
        for (const c of (Array.isArray(spec[list]) ? spec[list] : []) as Obj[]) {
          const member = ((from.spec?.[list] ?? []) as Obj[]).find((m) => m?.name === c?.name);
          if (!member) continue;
          if (member.volumeMounts !== undefined) c.volumeMounts = member.volumeMounts;
          else delete c.volumeMounts;
        }
      }
      return out;
    }
    case 'v1/Service':
      if (typeof from.spec?.healthCheckNodePort === 'number' && from.spec.healthCheckNodePort > 0)
        setIn(out, ['spec', 'healthCheckNodePort'], from.spec.healthCheckNodePort);
      if (typeof from.spec?.clusterIP === 'string' && from.spec.clusterIP !== '')
        setIn(out, ['spec', 'clusterIP'], from.spec.clusterIP);
      return out;
    case 'v1/ServiceAccount':
      // lifted.RetainServiceAccountFields: the desired list as it is (repeats included), then each of the member's
      // entries whose name is not listed yet.
      for (const f of ['secrets', 'imagePullSecrets']) {
        const desiredList = (Array.isArray(out[f]) ? out[f] : []) as Obj[];
        const merged: unknown[] = [...desiredList];
        const named = new Set(desiredList.map((s) => s?.name));
        for (const s of (Array.isArray(from[f]) ? from[f] : []) as Obj[]) {
          if (typeof s?.name !== 'string' || named.has(s.name)) continue;
          merged.push(s);
          named.add(s.name);
        }
        if (merged.length > 0) out[f] = merged;
      }
      return out;
    case 'v1/PersistentVolumeClaim':
      if (typeof from.spec?.volumeName === 'string' && from.spec.volumeName !== '')
        setIn(out, ['spec', 'volumeName'], from.spec.volumeName);
      return out;
    case 'v1/PersistentVolume':
      if (from.spec?.claimRef !== undefined) setIn(out, ['spec', 'claimRef'], from.spec.claimRef);
      return out;
    case 'batch/v1/Job':
      if (isStringMap(from.spec?.selector?.matchLabels))
        setIn(out, ['spec', 'selector', 'matchLabels'], from.spec.selector.matchLabels);
      if (isStringMap(from.spec?.template?.metadata?.labels))
        setIn(out, ['spec', 'template', 'metadata', 'labels'], from.spec.template.metadata.labels);
      return out;
    case 'v1/Secret':
      // The token the member's controller wrote into a service-account-token Secret stays.
      if (out.type === 'kubernetes.io/service-account-token' && isStringMap(from.data)) out.data = from.data;
      return out;
    default:
      return desired;
  }
}

/**
 * Whether retainForMember keeps the member's spec.replicas for this object: what an HPA on the member writes, so an
 * update carrying it must be conditional on the member's resourceVersion (Karmada's object watcher updates with the
 * observed resourceVersion), or a scale between the read and the write would be undone with the count read.
 */
export function retainsMemberReplicas(desired: Obj, live: Obj | undefined): boolean {
  return (
    live !== undefined &&
    `${desired.apiVersion}/${desired.kind}` === 'apps/v1/Deployment' &&
    desired.metadata?.labels?.[RETAIN_REPLICAS_LABEL] === RETAIN_REPLICAS_VALUE &&
    typeof live.spec?.replicas === 'number'
  );
}

function setIn(obj: Obj, path: string[], value: unknown): void {
  let node = obj;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[path[path.length - 1]!] = value;
}

function isStringMap(v: unknown): v is Record<string, string> {
  return (
    Boolean(v) &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.values(v as object).every((x) => typeof x === 'string')
  );
}
