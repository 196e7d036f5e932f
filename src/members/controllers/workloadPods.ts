import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { admitPod } from '../resources/admitPod.ts';
import { defaultObject } from '../resources/defaultObject.ts';
import { podQosClass } from '../resources/podQos.ts';
import { quotaRefusal } from '../resources/quotaUsage.ts';
import { nameFromGenerateName } from '../store/randomSuffix.ts';
import { keyOf } from './ControllerDeps.ts';
import type { ObjectStore } from '../store/ObjectStore.ts';
import type { KubeObject, OwnerReference, ResourceType, StoreEvent } from '../types.ts';

// What the workload controllers share about the pods they own: finding them, reading their state, and
// stamping new ones out of a pod template.

export const PODS = '/pods';

export function ownerReferenceTo(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion!,
    kind: owner.kind!,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Objects of `resource` whose controller ownerReference points at `owner`. */
export function controlledBy(store: ObjectStore, owner: KubeObject, resource: string): KubeObject[] {
  return store
    .dependentsOf(owner.metadata.uid!)
    .filter((d) => d.resource === resource)
    .map((d) => store.get(d.resource, d.namespace, d.name))
    .filter((o): o is KubeObject => o !== undefined)
    .filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid && r.controller));
}

export function isTerminal(pod: KubeObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Counts toward a controller's replicas: not being deleted and not finished. */
export function isActive(pod: KubeObject): boolean {
  return !pod.metadata.deletionTimestamp && !isTerminal(pod);
}

export function isReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
}

/**
 * A pod out of the owner's template. Without a name it is generated as GetPodFromTemplate asks the API server to:
 * generateName `<owner>-`, a random suffix after it.
 */
export function podFromTemplate(
  owner: KubeObject,
  name: string | undefined,
  extraLabels: Record<string, string>,
  specOverrides: Record<string, unknown> = {},
): KubeObject {
  const template = owner.spec?.template ?? {};
  const generateName = `${owner.metadata.name}-`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(name === undefined ? { generateName, name: nameFromGenerateName(generateName) } : { name }),
      namespace: owner.metadata.namespace!,
      labels: { ...(template.metadata?.labels ?? {}), ...extraLabels },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      // Kubernetes' GetPodFromTemplate copies them too: such a pod waits for whoever owns them before it goes.
      ...(Array.isArray(template.metadata?.finalizers) && template.metadata.finalizers.length > 0
        ? { finalizers: [...template.metadata.finalizers] }
        : {}),
      ownerReferences: [ownerReferenceTo(owner)],
    },
    spec: { ...structuredClone(template.spec ?? {}), ...specOverrides },
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  };
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The pod-template-hash label value: a hash of the template, spelled with the consonant-and-digit alphabet
 * Kubernetes uses for generated names (rand.SafeEncodeString), e.g. `5d8c7f9b6`.
 */
export function templateHash(template: unknown): string {
  // Go decodes `creationTimestamp: null` to the zero time, the same template as one without it: `kubectl rollout
  // undo` sends it, and must find the old revision's ReplicaSet rather than make another.
  const meta = (template as { metadata?: Record<string, unknown> } | undefined)?.metadata;
  const normalized =
    meta && meta.creationTimestamp === null
      ? {
          ...(template as object),
          metadata: Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'creationTimestamp')),
        }
      : template;
  const digest = createHash('sha256')
    .update(stableStringify(normalized ?? {}))
    .digest();
  const decimal = String(digest.readUInt32BE(0));
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...decimal].map((d) => alphabet[d.charCodeAt(0) % alphabet.length]).join('');
}

/** Condition list with `type` set to status/reason, keeping lastTransitionTime when the status did not change. */
export function setCondition(
  conditions: any[] | undefined,
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: string,
  extra: Record<string, string> = {},
): any[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === type);
  const previous = index >= 0 ? list[index] : undefined;
  const unchanged =
    previous &&
    previous.status === status &&
    (previous.reason ?? '') === reason &&
    (previous.message ?? '') === message;
  const condition = unchanged
    ? previous
    : {
        type,
        status,
        reason,
        message,
        lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : now,
        ...Object.fromEntries(Object.keys(extra).map((k) => [k, now])),
      };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}

/**
 * A status as the API server serves it: the counters its Go type tags `omitempty` are left out when 0 (a reader
 * sees them absent, kubectl's jsonpath prints nothing and the Python client reads None), the others are kept.
 */
export function withoutZeroCounts<T extends Record<string, unknown>>(status: T, omitEmpty: readonly (keyof T)[]): T {
  const out = { ...status };
  for (const field of omitEmpty) if (out[field] === 0) delete out[field];
  return out;
}

/**
 * A pod condition as the kubelet and the scheduler write it: PodCondition tags reason and message omitempty, and its
 * lastProbeTime (a struct, which omitempty cannot omit) is never set by either, so it reads `null`.
 */
export function setPodCondition(
  conditions: any[] | undefined,
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: string,
): any[] {
  return setCondition(conditions, type, status, reason, message, now).map((c) =>
    c.type === type
      ? {
          type: c.type,
          status: c.status,
          lastProbeTime: null,
          lastTransitionTime: c.lastTransitionTime,
          ...(c.reason ? { reason: c.reason } : {}),
          ...(c.message ? { message: c.message } : {}),
        }
      : c,
  );
}

/** Writes status only when it differs, so a reconcile that changes nothing emits no event. */
export function statusChanged(object: KubeObject, status: unknown): boolean {
  return !isDeepStrictEqual(object.status, status);
}

/**
 * Creates a controller's pod the way the API server would store it: Pod defaults and the ServiceAccount
 * admission (account name, token volume), then the ResourceQuota admission, which may refuse it
 * (PodCreateRefused, the API error's text). A missing account does not block it here: the emulator creates each
 * namespace's `default` account before any controller runs there, and the real controller's retry loop is
 * not simulated.
 */
export function createPod(store: ObjectStore, podType: ResourceType, pod: KubeObject, nowMs: number): KubeObject {
  defaultObject('Pod', pod, () => '');
  admitPod(pod, (name) => store.get('/serviceaccounts', pod.metadata.namespace, name), false);
  pod.status = { ...(pod.status ?? {}), qosClass: podQosClass(pod) };
  const refusal = quotaRefusal(store, PODS, pod, nowMs);
  if (refusal) throw new PodCreateRefused(`pods "${pod.metadata.name}" is forbidden: ${refusal}`);
  return store.create(podType, pod);
}

/** The keys of the `kind` objects that control `object` (its controller owner references): whose converging it wakes. */
export function controllerKeys(object: KubeObject, kind: string): string[] {
  return (object.metadata.ownerReferences ?? [])
    .filter((r) => r.kind === kind && r.controller)
    .map((r) => keyOf(object.metadata.namespace, r.name));
}

/** A controller's pod the API server refused, as the create call's error reads. */
export class PodCreateRefused extends Error {}

/**
 * The keys of a controller whose last pod create was refused, to converge again when the namespace's quotas or pods
 * change (what could let the create through), where the real controller retries with backoff.
 */
export class RefusedCreates {
  private readonly byNamespace = new Map<string, Set<string>>();

  refused(namespace: string, key: string): void {
    let keys = this.byNamespace.get(namespace);
    if (!keys) this.byNamespace.set(namespace, (keys = new Set()));
    keys.add(key);
  }

  cleared(namespace: string, key: string): void {
    this.byNamespace.get(namespace)?.delete(key);
  }

  /** The pod `create` makes, or the API's refusal of it: the key is then converged again later. */
  attempt(namespace: string, key: string, create: () => KubeObject): KubeObject | PodCreateRefused {
    try {
      return create();
    } catch (error) {
      if (!(error instanceof PodCreateRefused)) throw error;
      this.refused(namespace, key);
      return error;
    }
  }

  keysFor(event: StoreEvent): string[] {
    const namespace = event.object.metadata.namespace;
    if (!namespace || (event.resource !== PODS && event.resource !== '/resourcequotas')) return [];
    return [...(this.byNamespace.get(namespace) ?? [])];
  }
}
