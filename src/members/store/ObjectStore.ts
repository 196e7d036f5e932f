import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  alreadyExists,
  ApiError,
  invalidFields,
  notFound,
  preconditionFailed,
  qualifiedResource,
  staleConflict,
} from '../ApiError.ts';
import { dropEmptyFields } from '../../api/unknownFields.ts';
import { formatTime } from '../../time/formatTime.ts';
import { groupVersionOf, resourceKeyOf } from '../resources/ResourceRegistry.ts';
import type { KubeObject, ResourceType, StoreEvent } from '../types.ts';

export type WriteScope = 'main' | 'status' | 'all';

/** How many recent events are kept so a watch can resume from a resourceVersion. */
const EVENT_LOG_SIZE = 10_000;

const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/**
 * The member's etcd: every object by `group/plural` and `namespace/name`, one global resourceVersion counter,
 * a short event log for watches, and an owner index for garbage collection. All writes are synchronous and
 * emit events synchronously, so controllers and watches see changes in commit order.
 *
 * Objects handed out are the stored instances: callers must clone before changing one.
 */
export class ObjectStore {
  private readonly buckets = new Map<string, Map<string, KubeObject>>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly byUid = new Map<string, { resource: string; key: string }>();
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private readonly log: StoreEvent[] = [];
  resourceVersion: number;

  constructor(
    initialResourceVersion = 1000,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.resourceVersion = initialResourceVersion;
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.buckets.get(resource)?.get(objectKey(namespace, name));
  }

  /** Objects of a resource, optionally in one namespace, sorted by namespace then name like etcd's key order. */
  list(resource: string, namespace?: string): KubeObject[] {
    const bucket = this.buckets.get(resource);
    if (!bucket) return [];
    const items = [...bucket.values()].filter((o) => namespace === undefined || o.metadata.namespace === namespace);
    return items.sort((a, b) =>
      objectKey(a.metadata.namespace, a.metadata.name!).localeCompare(
        objectKey(b.metadata.namespace, b.metadata.name!),
      ),
    );
  }

  getByUid(uid: string): { resource: string; object: KubeObject } | undefined {
    const entry = this.byUid.get(uid);
    const object = entry && this.buckets.get(entry.resource)?.get(entry.key);
    return entry && object ? { resource: entry.resource, object } : undefined;
  }

  resources(): string[] {
    return [...this.buckets.keys()];
  }

  /** `resource|namespace/name` keys of objects that list `uid` in their ownerReferences. */
  dependentsOf(uid: string): { resource: string; namespace: string | undefined; name: string }[] {
    return [...(this.dependents.get(uid) ?? [])].map((entry) => {
      const [resource, key] = entry.split('|') as [string, string];
      const slash = key.indexOf('/');
      return { resource, namespace: key.slice(0, slash) || undefined, name: key.slice(slash + 1) };
    });
  }

  /**
   * The oldest resourceVersion a watch may still start from: one before the first event kept, or the current one when
   * none is (the watch cache's oldest-1, which its 410 names).
   */
  oldestWatchableVersion(): number {
    const oldest = this.log[0];
    return oldest ? oldest.resourceVersion - 1 : this.resourceVersion;
  }

  /** Events after `resourceVersion`, or undefined when the log no longer reaches back that far (410 Gone). */
  eventsSince(resourceVersion: number): StoreEvent[] | undefined {
    const oldest = this.log[0];
    if (resourceVersion >= this.resourceVersion) return [];
    if (!oldest || oldest.resourceVersion > resourceVersion + 1) return undefined;
    return this.log.filter((e) => e.resourceVersion > resourceVersion);
  }

  /**
   * A resource's objects as they were at `resourceVersion` (etcd's read at a revision), sorted as `list` sorts them;
   * undefined when the event log no longer reaches back that far, as etcd answers a compacted revision.
   */
  listAt(resource: string, namespace: string | undefined, resourceVersion: number): KubeObject[] | undefined {
    const later = this.eventsSince(resourceVersion);
    if (!later) return undefined;
    const byKey = new Map(this.list(resource).map((o) => [objectKey(o.metadata.namespace, o.metadata.name!), o]));
    for (let i = later.length - 1; i >= 0; i--) {
      const event = later[i]!;
      if (event.resource !== resource) continue;
      const key = objectKey(event.object.metadata.namespace, event.object.metadata.name!);
      if (event.type === 'ADDED') byKey.delete(key);
      else if (event.previous) byKey.set(key, event.previous);
    }
    return [...byKey.entries()]
      .filter(([, o]) => namespace === undefined || o.metadata.namespace === namespace)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, o]) => o);
  }

  /**
   * Throws what creating `input` would throw (its namespace missing or terminating, its name taken) without
   * storing it: a dryRun=All create is refused exactly as the real one, as the API server's dry-run storage does.
   */
  checkCreate(rt: ResourceType, input: KubeObject): void {
    const name = input.metadata.name!;
    const namespace = rt.namespaced ? input.metadata.namespace : undefined;
    if (rt.namespaced) this.requireActiveNamespace(rt, namespace!, name);
    if (this.get(resourceKeyOf(rt), namespace, name)) throw alreadyExists(rt.group, rt.plural, name);
  }

  create(rt: ResourceType, input: KubeObject): KubeObject {
    const resource = resourceKeyOf(rt);
    const name = input.metadata.name!;
    const namespace = rt.namespaced ? input.metadata.namespace : undefined;
    if (rt.namespaced) this.requireActiveNamespace(rt, namespace!, name);
    // etcd3's Create refuses before it looks for the key, so this wins over AlreadyExists; a dry run never gets here.
    if (resourceVersionSetOnCreate(input.metadata.resourceVersion))
      throw new ApiError(500, '', 'resourceVersion should not be set on objects to be created');
    this.checkCreate(rt, input);
    const rv = ++this.resourceVersion;
    const object: KubeObject = {
      ...input,
      apiVersion: groupVersionOf(rt),
      kind: rt.kind,
      metadata: {
        ...input.metadata,
        name,
        ...(namespace !== undefined ? { namespace } : {}),
        // A uid the API layer drew before create (generated Job selectors embed it); else a new one.
        uid: input.metadata.uid ?? randomUUID(),
        resourceVersion: String(rv),
        creationTimestamp: this.timestamp(),
        ...(rt.tracksGeneration ? { generation: 1 } : {}),
      },
    };
    if (!rt.namespaced) delete object.metadata.namespace;
    delete object.metadata.deletionTimestamp;
    dropEmptyFields(object, object.apiVersion!, rt.kind);
    this.put(resource, object);
    this.emit({ type: 'ADDED', resource, object, resourceVersion: rv });
    return object;
  }

  /**
   * Replaces an object. `scope` decides which parts the caller may change: 'main' keeps the stored status,
   * 'status' keeps everything but status (the status subresource), 'all' is for controllers. A
   * resourceVersion in the input is a precondition (409 when stale). Identical writes emit nothing. `decoded` is the
   * stored object as the registry read it (a custom resource with its schema's defaults of now): the generation
   * goes up when the input's spec differs from that, not from the stored bytes.
   */
  update(rt: ResourceType, input: KubeObject, scope: WriteScope = 'all', decoded?: KubeObject): KubeObject {
    const resource = resourceKeyOf(rt);
    const name = input.metadata.name!;
    const namespace = rt.namespaced ? input.metadata.namespace : undefined;
    const current = this.get(resource, namespace, name);
    if (!current) throw notFound(rt.group, rt.plural, name);
    const precondition = input.metadata.resourceVersion;
    if (precondition !== undefined && precondition !== '' && precondition !== current.metadata.resourceVersion) {
      throw staleConflict(rt.group, rt.plural, name);
    }
    let next: KubeObject;
    if (scope === 'status') {
      next = { ...current, status: input.status };
      if (input.status === undefined) delete next.status;
    } else {
      next = { ...input, metadata: { ...input.metadata } };
      if (scope === 'main') {
        if (current.status === undefined) delete next.status;
        else next.status = current.status;
      }
    }
    next.apiVersion = groupVersionOf(rt);
    next.kind = rt.kind;
    // Identity and bookkeeping fields are the server's, whatever the client sent.
    next.metadata = {
      ...next.metadata,
      name,
      uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      resourceVersion: current.metadata.resourceVersion,
    };
    if (namespace !== undefined) next.metadata.namespace = namespace;
    if (current.metadata.deletionTimestamp) next.metadata.deletionTimestamp = current.metadata.deletionTimestamp;
    else delete next.metadata.deletionTimestamp;
    checkNoNewFinalizers(rt, name, current, next);
    // Decoded into its Go type first: a field written at its omitempty zero (`globalDefault: false`) is no change of
    // what is stored, so it neither bumps the generation nor makes the write a new version.
    dropEmptyFields(next, next.apiVersion, rt.kind);
    if (rt.tracksGeneration) {
      const generation = current.metadata.generation ?? 1;
      next.metadata.generation = generationChanged(rt, decoded ?? current, next) ? generation + 1 : generation;
    } else {
      delete next.metadata.generation;
    }
    // Identical writes are none, and so, as IgnoreManagedFieldsTimestampsTransformer has it, is one that changes nothing
    // but a managedFields entry's time (a server-side apply of what is already there).
    if (isDeepStrictEqual(withoutManagedFieldsTimes(next), withoutManagedFieldsTimes(current))) return current;
    // shouldDeleteDuringUpdate: the last finalizer's removal ends a deletion that has no grace period left to run.
    const grace = current.metadata.deletionGracePeriodSeconds;
    if (
      next.metadata.deletionTimestamp &&
      pendingFinalizers(next).length === 0 &&
      !(typeof grace === 'number' && grace > 0)
    ) {
      return this.remove(resource, next);
    }
    return this.modify(resource, next, current);
  }

  /**
   * Deletes an object, or marks it for deletion while finalizers remain (the caller gets the object back
   * with deletionTimestamp set; the last finalizer removal deletes it). `graceful` is a kind with graceful deletion
   * (pods): `period` is its strategy's grace period for this object (CheckGracefulDelete), `requested` the caller's
   * gracePeriodSeconds (not negative); a period above 0 marks the object and leaves its removal to whoever ends it (the kubelet).
   * `dryRun` decides and checks all the same, writes nothing, and answers the object as the write would leave it, at the
   * resourceVersion it has (the dry-run storage's answer).
   */
  delete(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    precondition?: { uid?: string; resourceVersion?: string },
    finalizers?: (current: readonly string[]) => string[],
    graceful?: { period: number; requested: number | undefined },
    dryRun = false,
  ): { object: KubeObject; deleted: boolean } {
    const resource = resourceKeyOf(rt);
    const current = this.get(resource, rt.namespaced ? namespace : undefined, name);
    if (!current) throw notFound(rt.group, rt.plural, name);
    checkDeletePreconditions(rt, current, precondition);
    const grace = graceful && gracefulDeletion(current, graceful, this.now());
    // A graceful deletion under way takes no new finalizers from the options (the registry returns before them).
    if (grace === 'pending') return { object: current, deleted: false };
    const had = current.metadata.finalizers ?? [];
    const kept = finalizers ? finalizers(had) : [...had];
    const mark = (deletionTimestamp: string, seconds: number) => {
      const marked = markedForDeletion(rt, current, kept, deletionTimestamp, seconds);
      return dryRun ? marked : this.modify(resource, marked, current);
    };
    const removed = (object: KubeObject) => ({
      object: dryRun ? object : this.remove(resource, object),
      deleted: true,
    });
    if (grace) {
      const marked = mark(grace.deletionTimestamp, grace.seconds);
      if (grace.seconds > 0 || pendingFinalizers(marked).length > 0) return { object: marked, deleted: false };
      return removed(marked);
    }
    const held = { ...current, metadata: { ...current.metadata, finalizers: kept } };
    if (pendingFinalizers(held).length > 0) {
      if (current.metadata.deletionTimestamp && isDeepStrictEqual(kept, had))
        return { object: current, deleted: false };
      return { object: mark(current.metadata.deletionTimestamp ?? this.timestamp(), 0), deleted: false };
    }
    return removed(current);
  }

  /** Stores `next` in place of `current` under a new resourceVersion, and tells the watchers. */
  private modify(resource: string, next: KubeObject, current: KubeObject): KubeObject {
    const rv = ++this.resourceVersion;
    next.metadata.resourceVersion = String(rv);
    this.put(resource, next, current);
    this.emit({ type: 'MODIFIED', resource, object: next, previous: current, resourceVersion: rv });
    return next;
  }

  /** Puts objects back exactly as persisted (restart): no events, resourceVersions kept. */
  restore(objects: { resource: string; object: KubeObject }[], resourceVersion: number): void {
    for (const { resource, object } of objects) this.put(resource, object);
    this.resourceVersion = Math.max(this.resourceVersion, resourceVersion);
  }

  snapshot(): { resource: string; object: KubeObject }[] {
    const out: { resource: string; object: KubeObject }[] = [];
    for (const [resource, bucket] of this.buckets) for (const object of bucket.values()) out.push({ resource, object });
    return out;
  }

  private remove(resource: string, current: KubeObject): KubeObject {
    const rv = ++this.resourceVersion;
    const gone = { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } };
    this.buckets.get(resource)?.delete(objectKey(current.metadata.namespace, current.metadata.name!));
    this.unindex(resource, current);
    if (current.metadata.uid) this.byUid.delete(current.metadata.uid);
    this.emit({ type: 'DELETED', resource, object: gone, previous: current, resourceVersion: rv });
    return gone;
  }

  /** The NamespaceLifecycle admission plugin: nothing new goes into a missing or Terminating namespace. */
  private requireActiveNamespace(rt: ResourceType, namespace: string, name: string): void {
    const ns = this.get('/namespaces', undefined, namespace);
    if (!ns) throw notFound('', 'namespaces', namespace);
    if (ns.metadata.deletionTimestamp) {
      throw new ApiError(
        403,
        'Forbidden',
        `${qualifiedResource(rt.group, rt.plural)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          name,
          ...(rt.group ? { group: rt.group } : {}),
          kind: rt.plural,
          causes: [
            {
              type: 'NamespaceTerminating',
              message: `namespace ${namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      );
    }
  }

  private put(resource: string, object: KubeObject, previous?: KubeObject): void {
    // ObjectMeta.managedFields is omitempty: a write that leaves no manager any field leaves no list either.
    if (Array.isArray(object.metadata.managedFields) && object.metadata.managedFields.length === 0)
      delete object.metadata.managedFields;
    let bucket = this.buckets.get(resource);
    if (!bucket) this.buckets.set(resource, (bucket = new Map()));
    bucket.set(objectKey(object.metadata.namespace, object.metadata.name!), object);
    if (object.metadata.uid)
      this.byUid.set(object.metadata.uid, {
        resource,
        key: objectKey(object.metadata.namespace, object.metadata.name!),
      });
    if (previous) this.unindex(resource, previous);
    for (const ref of object.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(`${resource}|${objectKey(object.metadata.namespace, object.metadata.name!)}`);
    }
  }

  private unindex(resource: string, object: KubeObject): void {
    for (const ref of object.metadata.ownerReferences ?? []) {
      const set = this.dependents.get(ref.uid);
      set?.delete(`${resource}|${objectKey(object.metadata.namespace, object.metadata.name!)}`);
      if (set?.size === 0) this.dependents.delete(ref.uid);
    }
  }

  private emit(event: StoreEvent): void {
    this.log.push(event);
    if (this.log.length > EVENT_LOG_SIZE) this.log.splice(0, this.log.length - EVENT_LOG_SIZE);
    for (const listener of [...this.listeners]) listener(event);
  }

  private timestamp(): string {
    return formatTime(this.now());
  }
}

/** What starts (or redirects) a deletion: deletionTimestamp, grace period and finalizers, to be written as one. */
function markedForDeletion(
  rt: ResourceType,
  current: KubeObject,
  finalizers: string[],
  deletionTimestamp: string,
  gracePeriodSeconds: number,
): KubeObject {
  const first = !current.metadata.deletionTimestamp;
  const { finalizers: _had, ...metadata } = current.metadata;
  const marked = {
    ...current,
    metadata: {
      ...metadata,
      ...(finalizers.length > 0 ? { finalizers } : {}),
      // The first marking bumps a tracked generation, so controllers see the deletion as a change of the object.
      ...(first && current.metadata.generation !== undefined ? { generation: current.metadata.generation + 1 } : {}),
      deletionTimestamp,
      deletionGracePeriodSeconds: gracePeriodSeconds,
    },
  };
  if (rt.kind === 'Namespace') marked.status = { ...(current.status ?? {}), phase: 'Terminating' };
  return marked;
}

// The etcd key prefixes kube-apiserver compiles in (SpecialDefaultResourcePrefixes); others are the resource's name,
// and a custom resource's is its group and plural.
const SPECIAL_PREFIXES: Record<string, string> = {
  '/replicationcontrollers': 'controllers',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/services': 'services/specs',
  'networking.k8s.io/ingresses': 'ingress',
};

/** Where kube-apiserver keeps an object in etcd; its precondition errors name it. */
function storageKey(rt: ResourceType, namespace: string | undefined, name: string): string {
  const prefix = rt.crd ? `${rt.group}/${rt.plural}` : (SPECIAL_PREFIXES[resourceKeyOf(rt)] ?? rt.plural);
  return `/registry/${prefix}/${rt.namespaced && namespace !== undefined ? `${namespace}/` : ''}${name}`;
}

/**
 * Whether a create's resourceVersion is one the storage versioner reads as a revision (strconv.ParseUint, base 10,
 * not 0): a value it cannot parse ("abc", "-1", past 2^64) is dropped and the create goes ahead.
 */
export function resourceVersionSetOnCreate(resourceVersion: unknown): boolean {
  if (typeof resourceVersion !== 'string' || !/^[0-9]+$/.test(resourceVersion)) return false;
  const revision = BigInt(resourceVersion);
  return revision > 0n && revision <= 0xffff_ffff_ffff_ffffn;
}

/**
 * storage.Preconditions.Check of the uid an update names: the stored object must still be the one it was read from.
 * (A stale resourceVersion is update's own conflict.)
 */
export function checkUidPrecondition(
  rt: ResourceType,
  namespace: string | undefined,
  name: string,
  current: KubeObject | undefined,
  uid: string,
): void {
  // A missing object is checked as the empty one storage decodes for it: its uid is "".
  const stored = current?.metadata.uid ?? '';
  if (uid !== stored)
    throw preconditionFailed(
      rt.group,
      rt.plural,
      name,
      storageKey(rt, namespace, name),
      `UID in precondition: ${uid}, UID in object meta: ${stored}`,
    );
}

/**
 * rest.BeforeDelete's early check of a delete's preconditions, which answers before the storage layer's: a conflict
 * on the kind (not the resource) whose message says what the mismatch likely means.
 */
function checkDeletePreconditions(
  rt: ResourceType,
  current: KubeObject,
  precondition: { uid?: string; resourceVersion?: string } | undefined,
): void {
  const { uid, resourceVersion, name } = current.metadata;
  const failed = (detail: string) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(rt.group, rt.kind)} "${name}": ${detail}`,
      {
        name: name!,
        group: rt.group,
        kind: rt.kind,
      },
    );
  if (precondition?.uid && precondition.uid !== uid)
    throw failed(
      `the UID in the precondition (${precondition.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  if (precondition?.resourceVersion && precondition.resourceVersion !== resourceVersion)
    throw failed(
      `the ResourceVersion in the precondition (${precondition.resourceVersion}) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
    );
}

/**
 * rest.BeforeDelete for a kind with graceful deletion: the deletionTimestamp and grace period to write, 'pending' when
 * a deletion under way already ends sooner, undefined when the object goes without one (no grace period left).
 */
function gracefulDeletion(
  current: KubeObject,
  { period, requested }: { period: number; requested: number | undefined },
  now: Date,
): { deletionTimestamp: string; seconds: number } | 'pending' | undefined {
  const stamp = (ms: number) => formatTime(new Date(ms));
  if (!current.metadata.deletionTimestamp)
    return { deletionTimestamp: stamp(now.getTime() + period * 1000), seconds: period };
  const existing: number | undefined = current.metadata.deletionGracePeriodSeconds;
  if (existing === undefined || existing === null || existing === 0) return undefined;
  // Only a shorter grace period may be asked for; the deletionTimestamp moves back by the difference, never past now.
  if (requested === undefined || requested >= existing) return 'pending';
  const moved = Date.parse(current.metadata.deletionTimestamp) - (existing - requested) * 1000;
  if (moved < now.getTime()) return { deletionTimestamp: stamp(now.getTime()), seconds: requested === 0 ? 0 : 1 };
  return { deletionTimestamp: stamp(moved), seconds: requested };
}

/** Finalizers that block removal: metadata.finalizers, plus spec.finalizers on a Namespace. */
export function pendingFinalizers(object: KubeObject): string[] {
  return [
    ...(object.metadata.finalizers ?? []),
    ...(object.kind === 'Namespace' ? (object.spec?.finalizers ?? []) : []),
  ];
}

/**
 * Whether an update bumps a generation-tracking object's generation: anything but metadata and status changed. Without
 * a status subresource, a custom resource's status is part of what it is (customresource/strategy.go).
 */
export function generationChanged(rt: ResourceType, a: KubeObject, b: KubeObject): boolean {
  return specChanged(a, b, rt.crd !== undefined && !rt.subresources.includes('status'));
}

/** The object with its managedFields entries' times left out, the rest as it is. */
function withoutManagedFieldsTimes(object: KubeObject): KubeObject {
  const entries = object.metadata.managedFields;
  if (!entries) return object;
  return {
    ...object,
    metadata: { ...object.metadata, managedFields: entries.map(({ time: _time, ...entry }) => entry) },
  };
}

/** ValidateObjectMetaUpdate: an object being deleted takes no new finalizer (listed deduplicated and sorted). */
export function checkNoNewFinalizers(rt: ResourceType, name: string, current: KubeObject, next: KubeObject): void {
  if (!current.metadata.deletionTimestamp) return;
  const had = new Set(current.metadata.finalizers ?? []);
  const added = [...new Set((next.metadata.finalizers ?? []).filter((f) => !had.has(f)))].sort();
  if (added.length > 0)
    throw invalidFields(rt.kind, rt.group, name, [
      {
        type: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        body: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
      },
    ]);
}

/** Whether anything but metadata and status (or only metadata, `withStatus`) differs. */
function specChanged(a: KubeObject, b: KubeObject, withStatus = false): boolean {
  const strip = ({ metadata: _m, status, apiVersion: _a, kind: _k, ...rest }: KubeObject) =>
    withStatus ? { ...rest, status } : rest;
  return !isDeepStrictEqual(strip(a), strip(b));
}
