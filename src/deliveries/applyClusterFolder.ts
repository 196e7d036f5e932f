import { mapLimit } from '../concurrency/mapLimit.ts';
import { POLICY_CLAIM_KEYS } from '../bindings/policyClaim.ts';
import { describeRef, refKey, type ObjectRef } from '../api/kinds.ts';
import {
  ALLOW_PRUNE_TRAILER,
  checkPruneSafety,
  type DeletionAttribution,
  type PruneVerdict,
  type SourceState,
} from './checkPruneSafety.ts';
import { identityKey, type Inventory } from '../branches/status/inventory.ts';
import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';
import type { KubeTarget } from './KubeTarget.ts';
import { applyBody, isManaged, isSubset, planDelivery, storedForm, type DeliveryObject } from './planDelivery.ts';
import { DiscoveryFailedError, forgetDiscovery, resolveResource, resourcePath } from './resolveResource.ts';
import { DEFAULT_RETRY, KubeUnreachableError, sendRequest, statusMessage, type RetryPolicy } from './sendRequest.ts';
import { responseErrorText } from './clientGoErrors.ts';
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import { CONFLICT_RESOLUTION_ANNOTATION, FIELD_MANAGER, type ApplyResult, type ConflictResolution } from './types.ts';
import { retainForMember, retainsMemberReplicas } from '../interpreters/retainForMember.ts';
import { retainClusterFields } from './retainClusterFields.ts';
import {
  customizationFor,
  customRetainLive,
  BUILT_IN_INTERPRETERS,
  type InterpreterSet,
} from '../interpreters/customizations.ts';

export interface ApplyClusterOptions {
  cluster: string;
  /** Path in the rendered branch → parsed manifest. */
  manifests: ReadonlyMap<string, unknown>;
  kube: KubeTarget;
  /** What Flotilla applied to this cluster last time (empty on the first pass): its objects, repaired by force. */
  inventory: Inventory;
  /**
   * Identity keys (inventory.ts identityKey) of objects released under preserveResourcesOnDeletion: their template
   * was deleted, they stay on the member and leave the inventory, so no later pass prunes them.
   */
  released?: ReadonlySet<string>;
  /**
   * Identity keys of objects whose policy suspends dispatching on this cluster: nothing is sent for them, whatever
   * the member holds; they stay in the folder and the inventory, and their status is still read.
   */
  suspended?: ReadonlySet<string>;
  /**
   * Set when the cluster's Ready condition is not True, saying so: Karmada's execution controller syncs no Work to such a
   * cluster, so nothing of the folder is sent nor read, and each object is reported not applied with this message and
   * remembered as it was. Releases still go ahead: Karmada's handleWorkDelete strips a preserved object's claim before
   * that Ready check.
   */
  notReady?: string;
  /**
   * The inventory's pending entries: what an earlier apply was about to create but never confirmed as ours (a pass
   * that died before its status commit, a conflict). Pruned like the inventory, with one more check: the live
   * object must carry Flotilla's field manager. Never forced.
   */
  pending?: Inventory;
  /**
   * Whether the folder was read completely. False (folder missing, a file unreadable) disables pruning: an object
   * absent from a partial read was not removed by anyone. The caller must say so explicitly.
   */
  prune: boolean;
  /** Used when a manifest has no work.karmada.io/conflict-resolution annotation. Default 'abort', as Karmada. */
  conflictResolution?: ConflictResolution;
  /** The rendered commit's customizations: a kind's Lua Retain replaces the built-in one before an update. */
  interpreters?: InterpreterSet;
  /** Default 'flotilla'. */
  fieldManager?: string;
  retry?: RetryPolicy;
  /** Objects applied at the same time on this member. Default 8. */
  concurrency?: number;
  /** How long to wait for applied CRDs to become Established. Default 30,000 ms. */
  crdEstablishTimeoutMs?: number;
  /** The prune guard. Always on; absent means a source read as `ok`, threshold 0.5 and no trailer. */
  pruneSafety?: PruneSafetyOptions;
}

export interface PruneSafetyOptions {
  /** How the source commit behind this folder read; anything but `ok` holds every deletion. */
  source: SourceState;
  /** Share of the inventory whose deletion is held, exclusive. Default 0.5. */
  threshold?: number;
  /**
   * Looked up only when something would be held: which source commit deleted each object here, with its
   * Flotilla-Allow-Prune reason (plans/readDeletingCommits.ts). A trailer lets through that commit's deletions only.
   */
  readDeletions?: () => Promise<DeletionAttribution>;
  /**
   * Objects the applier derives on the member rather than reads from the rendered branch (a ServiceImport's Service
   * and slices): their deletion follows the export or import that went, which the guard has judged already, so
   * with a readable source they neither count towards the threshold nor wait for a trailer.
   */
  derived?: (ref: ObjectRef) => boolean;
}

export interface ClusterApplyReport {
  cluster: string;
  results: ApplyResult[];
  /** What to remember for the next pass: applied (or attempted) objects that are ours, plus prune survivors we failed to delete. */
  inventory: Inventory;
  /** The pending entries to remember: objects whose apply conflicted, and pending ones not confirmed nor pruned. */
  pending?: Inventory;
  /** Create, patch and delete requests sent (retries included). Zero on a pass where nothing changed. */
  writes: number;
  /** Set when pruning was disabled or the cluster stopped answering. */
  notes: string[];
  /** Prune safety's verdict on this pass's deletions; absent when nothing was to be deleted. */
  prune?: PruneVerdict;
  /** The member stopped answering during the pass: nothing can be said to have been applied there. */
  unreachable?: true;
}

/**
 * Applies one cluster's folder with server-side apply: Namespaces and CRDs first, then (once the CRDs are
 * Established) everything else, then prunes what the folder no longer holds. Each object is read first, so a pass
 * where nothing changed sends no write; an object someone else created is left alone under `abort` and taken over
 * (force) under `overwrite`. When the member stops answering, the remaining objects fail without further requests.
 */
export async function applyClusterFolder(opts: ApplyClusterOptions): Promise<ClusterApplyReport> {
  const ctx: Ctx = {
    kube: opts.kube,
    fieldManager: opts.fieldManager ?? FIELD_MANAGER,
    retry: opts.retry ?? DEFAULT_RETRY,
    writes: 0,
    unreachable: undefined,
    notSent: undefined,
    owned: new Set(opts.inventory.map(identityKey)),
    pending: new Set((opts.pending ?? []).map(identityKey)),
    interpreters: opts.interpreters ?? BUILT_IN_INTERPRETERS,
  };
  const released = opts.released ?? new Set<string>();
  const suspendedKeys = opts.suspended ?? new Set<string>();
  const inFolder = new Set<string>();
  // Held back from the plan, so nothing is applied for them; still in the folder, so nothing prunes them.
  const suspendedManifests = new Map<string, ObjectRef>();
  // Not sent because the cluster is not Ready; remembered as they were, like the suspended ones.
  const unsynced = new Map<string, ObjectRef>();
  for (const [path, m] of opts.manifests) {
    const meta =
      (m as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } | null) ?? {};
    if (meta.apiVersion && meta.kind && meta.metadata?.name) {
      const ref = {
        apiVersion: meta.apiVersion,
        kind: meta.kind,
        namespace: meta.metadata.namespace ?? '',
        name: meta.metadata.name,
      };
      const key = identityKey(ref);
      inFolder.add(key);
      if (opts.notReady !== undefined) unsynced.set(path, ref);
      else if (suspendedKeys.has(key)) suspendedManifests.set(path, ref);
    }
  }
  const manifests =
    suspendedManifests.size === 0 && unsynced.size === 0
      ? opts.manifests
      : new Map([...opts.manifests].filter(([path]) => !suspendedManifests.has(path) && !unsynced.has(path)));
  const releasing = opts.inventory.filter((r) => released.has(identityKey(r)) && !inFolder.has(identityKey(r)));
  // Forgotten once the claim is off; one the member did not answer for stays ours, to be released by the next pass.
  const releaseFailures: string[] = [];
  const releasedNow: ObjectRef[] = [];
  for (const ref of releasing) {
    const failure = await releaseOne(ctx, ref);
    if (failure) releaseFailures.push(`${describeRef(ref)}: ${failure}`);
    else releasedNow.push(ref);
  }
  const inventoryIn = releasedNow.length ? opts.inventory.filter((r) => !releasedNow.includes(r)) : opts.inventory;
  const releasedKeys = new Set(releasedNow.map(identityKey));
  const remembered = [
    ...inventoryIn,
    ...(opts.pending ?? []).filter((r) => !ctx.owned.has(identityKey(r)) && !releasedKeys.has(identityKey(r))),
  ];
  const suspendedNow = new Set([...suspendedManifests.values(), ...unsynced.values()].map(identityKey));
  const plan = planDelivery({
    manifests,
    inventory: suspendedNow.size ? remembered.filter((r) => !suspendedNow.has(identityKey(r))) : remembered,
    prune: opts.prune,
    defaultConflictResolution: opts.conflictResolution,
  });
  const notes: string[] = [];
  if (releasedNow.length)
    notes.push(
      `${releasedNow.length} object(s) released (preserveResourcesOnDeletion): left on the member, no longer managed`,
    );
  if (releaseFailures.length)
    notes.push(`not released yet (preserveResourcesOnDeletion), tried again next pass: ${releaseFailures.join('; ')}`);
  if (!opts.prune && opts.notReady === undefined) notes.push('pruning skipped: the folder was not read completely');
  const results: ApplyResult[] = [...plan.invalid];
  const guard = await guardPrune(opts.cluster, remembered, plan.prune, opts.pruneSafety ?? { source: 'ok' });
  if (guard.verdict?.held.length)
    notes.push(`prune held: ${guard.verdict.held.map((h) => h.message).join('; ')}; fix: ${guard.verdict.fix}`);
  const concurrency = opts.concurrency ?? 8;

  results.push(...(await mapLimit(plan.namespaces, concurrency, (o) => applyOne(ctx, o))));
  const crdResults = await mapLimit(plan.crds, concurrency, (o) => applyOne(ctx, o));
  results.push(...crdResults);

  // Custom resources of a CRD applied in this pass wait until the API server serves them.
  const notEstablished = new Map<string, string>();
  await Promise.all(
    plan.crds.map(async (crd, i) => {
      const res = crdResults[i]!;
      const groups = servedVersions(crd.manifest);
      if (res.action === 'failed' || res.action === 'conflict') {
        for (const gv of groups)
          notEstablished.set(gv, `CustomResourceDefinition ${crd.ref.name} was not applied: ${res.message}`);
        return;
      }
      const problem = await waitEstablished(ctx, crd.ref.name, opts.crdEstablishTimeoutMs ?? 30_000);
      for (const gv of groups) {
        forgetDiscovery(ctx.kube, gv);
        if (problem) notEstablished.set(gv, problem);
      }
    }),
  );

  results.push(
    ...(await mapLimit(plan.rest, concurrency, (o) => {
      const blocked = notEstablished.get(o.ref.apiVersion);
      // Once the member stopped answering, nothing was sent for the kinds a CRD serves either.
      if (blocked && !ctx.unreachable) return Promise.resolve(failed(o.ref, o.path, blocked));
      return applyOne(ctx, o);
    })),
  );

  // Deletions run one at a time in order: contents before their Namespace or CRD.
  const pruneResults: ApplyResult[] = [];
  for (const ref of guard.prune) {
    const r = await pruneOne(ctx, ref, !ctx.owned.has(identityKey(ref)) && ctx.pending.has(identityKey(ref)));
    if (!r) continue; // a pending entry that is not ours: forgotten, nothing to report
    pruneResults.push(
      guard.allowedBy && r.action === 'pruned' ? { ...r, message: `${r.message} (allowed by ${guard.allowedBy})` } : r,
    );
  }
  results.push(...pruneResults, ...guard.held);
  const observed = await mapLimit([...suspendedManifests], concurrency, ([path, ref]) =>
    observeSuspended(ctx, ref, path),
  );
  if (ctx.unreachable) notes.push(ctx.unreachable);

  const inventory: Inventory = [];
  const pending: Inventory = [];
  // Ours only when applied now, or ours before; an entry that was pending stays pending until an apply succeeds.
  const remember = (ref: ObjectRef) => (ctx.owned.has(identityKey(ref)) ? inventory : pending).push(ref);
  for (const r of results) {
    if (r.prune) {
      // A failed or held delete stays in the inventory so a later pass can still do it; everything else leaves it.
      if (r.action === 'failed' || r.action === 'held') remember(r.ref);
    } else if (!r.ref.name || !r.ref.kind) {
      continue;
    } else if (r.action === 'conflict') {
      // Not ours, and remembered as such: the next pass has nothing new to record for it.
      pending.push(r.ref);
    } else if (r.action === 'failed') {
      // The object may exist. Pruning re-checks the label (and for pending entries our field manager) first.
      remember(r.ref);
    } else {
      inventory.push(r.ref);
    }
  }
  // Nothing was sent for these: each is remembered as it was.
  for (const ref of [...suspendedManifests.values(), ...unsynced.values()]) {
    const key = identityKey(ref);
    if (ctx.owned.has(key)) inventory.push(ref);
    else if (ctx.pending.has(key)) pending.push(ref);
  }
  results.push(...observed);
  for (const [path, ref] of unsynced) results.push(notSynced(ref, path, opts.notReady!));
  // Without pruning, what the previous inventory held stays remembered.
  if (!opts.prune) {
    const have = new Set([...inventory, ...pending].map(identityKey));
    for (const r of remembered) if (!have.has(identityKey(r))) remember(r);
  }
  return {
    cluster: opts.cluster,
    results,
    inventory,
    pending,
    writes: ctx.writes,
    notes,
    ...(guard.verdict ? { prune: guard.verdict } : {}),
    ...(ctx.unreachable ? { unreachable: true as const } : {}),
  };
}

/**
 * Splits the planned deletions into those that go ahead and those prune safety holds. The trailer is looked up only
 * when something would be held, so a pass with ordinary deletions reads no source history.
 */
interface GuardedPrune {
  prune: ObjectRef[];
  held: ApplyResult[];
  verdict: PruneVerdict | null;
  allowedBy: string | undefined;
}

async function guardPrune(
  cluster: string,
  inventory: Inventory,
  planned: ObjectRef[],
  safety: PruneSafetyOptions,
): Promise<GuardedPrune> {
  if (planned.length === 0) return { prune: planned, held: [] as ApplyResult[], verdict: null, allowedBy: undefined };
  const derived = safety.source === 'ok' && safety.derived ? safety.derived : () => false;
  const followers = planned.filter(derived);
  if (followers.length > 0) {
    const guarded = await guardPrune(
      cluster,
      inventory.filter((r) => !derived(r)),
      planned.filter((r) => !derived(r)),
      safety,
    );
    return { ...guarded, prune: [...guarded.prune, ...followers] };
  }
  const input = {
    current: new Map([[cluster, inventory.length]]),
    removals: new Map([[cluster, planned.map(refKey)]]),
    source: safety.source,
    allowWith: 'new-commit' as const,
    ...(safety.threshold !== undefined ? { threshold: safety.threshold } : {}),
  };
  let verdict = checkPruneSafety(input);
  let allowedBy: string | undefined;
  if (verdict.held.length > 0 && safety.source === 'ok' && safety.readDeletions) {
    const deletedBy = await safety.readDeletions();
    verdict = checkPruneSafety({ ...input, deletedBy });
    const commits = [
      ...new Set(verdict.allowed.flatMap((h) => h.refs.map((ref) => deletedBy(cluster, ref)?.allowedAt?.slice(0, 12)))),
    ].filter(Boolean);
    if (verdict.allowedBy)
      allowedBy = `${ALLOW_PRUNE_TRAILER}: ${verdict.allowedBy} (source commit ${commits.join(', ')})`;
  }
  const heldKeys = new Map<string, string>();
  for (const h of verdict.held) for (const ref of h.refs) heldKeys.set(ref, `${h.message} (${h.reason})`);
  const held: ApplyResult[] = [];
  const prune: ObjectRef[] = [];
  for (const ref of planned) {
    const why = heldKeys.get(refKey(ref));
    if (why)
      held.push({
        ref,
        prune: true,
        action: 'held',
        message: `deletion held by prune safety: ${why}; fix: ${verdict.fix}`,
      });
    else prune.push(ref);
  }
  return { prune, held, verdict, allowedBy };
}

interface Ctx {
  kube: KubeTarget;
  fieldManager: string;
  retry: RetryPolicy;
  writes: number;
  /** Set once a request found nobody answering; later objects fail fast instead of each waiting out its retries. */
  unreachable: string | undefined;
  /** What the status branch says of an object not sent for that: the failed request's error, then that it was not sent. */
  notSent: string | undefined;
  /** Identity keys of the inventory: with the managed label, what Flotilla owns and repairs by force. */
  owned: ReadonlySet<string>;
  /** Identity keys of the pending entries: ours once the live object shows the label and Flotilla's field manager. */
  pending: ReadonlySet<string>;
  interpreters: InterpreterSet;
}

/** Applies of an object whose retained replicas went stale under us (an HPA scaled it meanwhile) before giving up. */
const STALE_ATTEMPTS = 3;

async function applyOne(ctx: Ctx, obj: DeliveryObject, attempt = 1): Promise<ApplyResult> {
  const { ref, path } = obj;
  if (ctx.unreachable) return notAttempted(ctx, ref, path);
  try {
    const resource = await resolveResource(ctx.kube, ref.apiVersion, ref.kind, ctx.retry);
    if (!resource)
      return failed(
        ref,
        path,
        `${ctx.kube.name} does not serve ${ref.kind} in ${ref.apiVersion}; fix: install its CRD or enable that API on the member`,
      );
    const url = resourcePath(ref.apiVersion, resource, ref.namespace, ref.name);

    const current = await sendRequest(ctx.kube, { method: 'GET', path: url }, ctx.retry);
    let live: Record<string, unknown> | undefined;
    if (current.status === 200) live = current.body as Record<string, unknown>;
    else if (current.status !== 404)
      return withError(
        failed(ref, path, `reading the live object failed: ${statusMessage(current)}`),
        responseErrorText(current),
      );
    const retained = retainMemberFields(ctx, ref, obj.manifest, live);
    if (typeof retained === 'string') return failed(ref, path, retained);
    const body = applyBody(retained);
    // The count kept is the member's as read: the apply is conditional on that read, so an HPA scaling in between
    // makes it a 409 and the object is read and applied again, never set back to the count read.
    const conditional = retainsMemberReplicas(obj.manifest, live);
    const resourceVersion = (live?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;

    if (live && !isManaged(live) && obj.conflictResolution === 'abort') {
      // Karmada's own words (objectwatcher.go Update), which its Work's Applied condition carries.
      const refusal = `resource(kind=${ref.kind}, ${ref.namespace}/${ref.name}) already exists in the cluster ${ctx.kube.name} and the ${CONFLICT_RESOLUTION_ANNOTATION} strategy value is empty, Karmada will not manage this resource`;
      return {
        ref,
        path,
        action: 'conflict',
        live,
        message: `${refusal}: it is not labelled ${MANAGED_LABEL}=true, so Flotilla left it untouched; fix: delete it, or set ${CONFLICT_RESOLUTION_ANNOTATION}: overwrite to take it over`,
        error: refusal,
      };
    }
    const stored = storedForm(body);
    if (live && isSubset(body, live, stored))
      return { ref, path, action: 'unchanged', message: 'live object already matches', live };

    // Ours (labelled, and in the inventory: Flotilla applied it): another manager's edit is drift, repaired by
    // taking the fields back, as Karmada's execution controller overwrites the objects it manages. conflictResolution
    // is about objects that are not ours (KARMADA.md: not labelled karmada.io/managed=true), and only those. A pending
    // entry Flotilla applied before its status commit was lost is ours by the same test that lets the prune delete it.
    const key = identityKey(ref);
    const owned =
      live !== undefined &&
      isManaged(live) &&
      (ctx.owned.has(key) || (ctx.pending.has(key) && appliedBy(live, ctx.fieldManager)));
    const force = obj.conflictResolution === 'overwrite' || owned;
    ctx.writes++;
    const res = await sendRequest(
      ctx.kube,
      {
        method: 'PATCH',
        path: url,
        query: { fieldManager: ctx.fieldManager, ...(force ? { force: 'true' } : {}) },
        // JSON is YAML: the server parses the apply patch as YAML either way.
        body: JSON.stringify(
          conditional && resourceVersion
            ? { ...body, metadata: { ...(body.metadata as object), resourceVersion } }
            : body,
        ),
        contentType: 'application/apply-patch+yaml',
      },
      ctx.retry,
    );
    if (res.status === 409 && conditional && isStale(res)) {
      if (attempt < STALE_ATTEMPTS) return applyOne(ctx, obj, attempt + 1);
      return withError(
        failed(
          ref,
          path,
          `the member changed it while it was applied, ${attempt} times in a row (an HPA scaling it?): ${statusMessage(res)}; the next pass tries again`,
        ),
        responseErrorText(res),
      );
    }
    if (res.status === 409) {
      return {
        ref,
        path,
        action: 'conflict',
        live,
        message: `field conflict with another manager (apply without force under conflict-resolution abort): ${statusMessage(res)}`,
        error: responseErrorText(res),
      };
    }
    if (res.status !== 200 && res.status !== 201)
      return withError(failed(ref, path, `server-side apply failed: ${statusMessage(res)}`), responseErrorText(res));
    const created = !live || res.status === 201;
    const drift = !created && owned && sameSource(body, live);
    let after = res.body as Record<string, unknown>;
    // A forced apply takes back every field Git sets, yet leaves what other managers added beside them (the previous
    // owner's extra container, a list entry added by hand), so the object would never match and every pass would
    // apply it again. Karmada's object watcher replaces the object it updates: so is this one, once.
    if (!created && force && !isSubset(body, after, stored)) {
      const replaced = await replaceObject(ctx, obj, url, after);
      if ('message' in replaced) return withError(failed(ref, path, replaced.message), replaced.error);
      after = replaced.live;
    }
    return {
      ref,
      path,
      action: created ? 'created' : drift ? 'drift-repaired' : 'configured',
      message: created
        ? 'created'
        : live && !isManaged(live)
          ? 'taken over (conflict-resolution overwrite)'
          : drift
            ? 'drift repaired: the live object differed from Git'
            : 'configured',
      live: after,
    };
  } catch (err) {
    return failure(ctx, ref, path, err);
  }
}

/**
 * The manifest with what the member owns kept (Karmada's Retain, run by its object watcher before every update): a
 * kind's Lua Retain replaces the built-in rule, and one that fails stops this object's update, as in Karmada; then
 * why, as a string.
 */
function retainMemberFields(
  ctx: Ctx,
  ref: ObjectRef,
  manifest: Record<string, unknown>,
  live: Record<string, unknown> | undefined,
): Record<string, unknown> | string {
  let custom: Record<string, unknown> | undefined;
  try {
    custom = live ? customRetainLive(customizationFor(ctx.interpreters, ref), manifest, live) : undefined;
  } catch (err) {
    return `the Retain hook of its ResourceInterpreterCustomization failed: ${(err as Error).message}`;
  }
  return custom ?? retainForMember(manifest, live);
}

/**
 * Karmada's update of a member object (objectwatcher.go Update): the manifest with the member's fields retained
 * (retainClusterFields, then the kind's Retain), written whole, conditional on the resourceVersion read; a member that
 * changed it meanwhile (its controllers write right after an apply) is read again, as Karmada retries on conflict.
 * Returns the object as the member then holds it, or why it could not be written (with the member's refusal as
 * client-go's error says it, which is all Karmada's Work says of a failed Update).
 */
async function replaceObject(
  ctx: Ctx,
  obj: DeliveryObject,
  url: string,
  observed: Record<string, unknown>,
  attempt = 1,
): Promise<{ live: Record<string, unknown> } | { message: string; error?: string }> {
  const desired = retainMemberFields(ctx, obj.ref, retainClusterFields(obj.manifest, observed), observed);
  if (typeof desired === 'string') return { message: desired };
  const body = applyBody(desired);
  const resourceVersion = (observed.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  ctx.writes++;
  const res = await sendRequest(
    ctx.kube,
    {
      method: 'PUT',
      path: url,
      query: { fieldManager: ctx.fieldManager },
      body: JSON.stringify({ ...body, metadata: { ...(body.metadata as object), resourceVersion } }),
      contentType: 'application/json',
    },
    ctx.retry,
  );
  if (res.status === 200) return { live: res.body as Record<string, unknown> };
  if (res.status === 409 && isStale(res) && attempt < STALE_ATTEMPTS) {
    const current = await sendRequest(ctx.kube, { method: 'GET', path: url }, ctx.retry);
    if (current.status === 200)
      return replaceObject(ctx, obj, url, current.body as Record<string, unknown>, attempt + 1);
  }
  return {
    message: `applied, but it still holds fields other managers set beside Git's, and replacing it failed: ${statusMessage(res)}; the next pass tries again`,
    error: responseErrorText(res),
  };
}

/**
 * `pendingOnly`: the ref is a pending entry, never confirmed ours, so the live object must also show Flotilla
 * applied it; null when it does not (someone else's object, which the apply only ever conflicted with).
 */
/** A suspended object: read for its status, nothing sent. */
async function observeSuspended(ctx: Ctx, ref: ObjectRef, path: string): Promise<ApplyResult> {
  const message = 'dispatching suspended by its policy: nothing sent to the member';
  if (ctx.unreachable) return notAttempted(ctx, ref, path);
  try {
    const resource = await resolveResource(ctx.kube, ref.apiVersion, ref.kind, ctx.retry);
    if (!resource) return { ref, path, action: 'unchanged', message, suspended: true };
    const url = resourcePath(ref.apiVersion, resource, ref.namespace, ref.name);
    const current = await sendRequest(ctx.kube, { method: 'GET', path: url }, ctx.retry);
    return current.status === 200
      ? { ref, path, action: 'unchanged', message, live: current.body as Record<string, unknown>, suspended: true }
      : { ref, path, action: 'unchanged', message: `${message} (${statusMessage(current)})`, suspended: true };
  } catch (err) {
    return failure(ctx, ref, path, err);
  }
}

/**
 * What marks a member object as placed (execution_controller.go#cleanupPolicyClaimMetadata): the claim of the policy of
 * its scope (detector/claim.go), Karmada's managed labels and annotations (util.ManagedResourceLabels and
 * ManagedResourceAnnotations), and the source commit Flotilla stamps.
 */
const RELEASED_LABELS = ['resourcebinding.karmada.io/permanent-id', 'work.karmada.io/permanent-id', MANAGED_LABEL];
const RELEASED_ANNOTATIONS = [
  'resourcetemplate.karmada.io/managed-annotations',
  'resourcetemplate.karmada.io/managed-labels',
  'resourcebinding.karmada.io/namespace',
  'resourcebinding.karmada.io/name',
  'resourcetemplate.karmada.io/uid',
  'resourcetemplate.karmada.io/generation',
  'work.karmada.io/name',
  'work.karmada.io/namespace',
  SOURCE_COMMIT_ANNOTATION,
];

/**
 * Leaves a released object on the member without the labels and annotations that claim it, so that nothing reads it
 * as placed any more (nor as ours: the managed label goes). Returns why it could not, or undefined when it is done
 * (the object gone, or the API with it, counts as done).
 */
async function releaseOne(ctx: Ctx, ref: ObjectRef): Promise<string | undefined> {
  if (ctx.unreachable) return ctx.unreachable;
  try {
    const resource = await resolveResource(ctx.kube, ref.apiVersion, ref.kind, ctx.retry);
    if (!resource) return undefined;
    const url = resourcePath(ref.apiVersion, resource, ref.namespace, ref.name);
    const current = await sendRequest(ctx.kube, { method: 'GET', path: url }, ctx.retry);
    if (current.status === 404) return undefined;
    if (current.status !== 200) return `reading it failed: ${statusMessage(current)}`;
    const meta =
      (current.body as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } })
        .metadata ?? {};
    const claim = ref.namespace ? POLICY_CLAIM_KEYS.PropagationPolicy : POLICY_CLAIM_KEYS.ClusterPropagationPolicy;
    const nulled = (keys: readonly string[], present: Record<string, string> | undefined) =>
      Object.fromEntries(keys.filter((k) => present && Object.hasOwn(present, k)).map((k) => [k, null]));
    const labels = nulled([...claim.labels, ...RELEASED_LABELS], meta.labels);
    const annotations = nulled([...claim.annotations, ...RELEASED_ANNOTATIONS], meta.annotations);
    if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) return undefined;
    ctx.writes++;
    const res = await sendRequest(
      ctx.kube,
      {
        method: 'PATCH',
        path: url,
        query: { fieldManager: ctx.fieldManager },
        body: JSON.stringify({ metadata: { labels, annotations } }),
        contentType: 'application/merge-patch+json',
      },
      ctx.retry,
    );
    if (res.status === 404) return undefined;
    return res.status >= 200 && res.status < 300 ? undefined : `removing its claim failed: ${statusMessage(res)}`;
  } catch (err) {
    return noteFailure(ctx, err);
  }
}

async function pruneOne(ctx: Ctx, ref: ObjectRef, pendingOnly: boolean): Promise<ApplyResult | null> {
  if (ctx.unreachable) return { ...notAttempted(ctx, ref, undefined), prune: true };
  try {
    const resource = await resolveResource(ctx.kube, ref.apiVersion, ref.kind, ctx.retry);
    // The API is gone (CRD deleted): so is every object of it.
    if (!resource)
      return {
        ref,
        prune: true,
        action: 'pruned',
        message: `already gone: ${ctx.kube.name} no longer serves ${ref.kind}`,
      };
    const url = resourcePath(ref.apiVersion, resource, ref.namespace, ref.name);
    const current = await sendRequest(ctx.kube, { method: 'GET', path: url }, ctx.retry);
    if (current.status === 404) return { ref, prune: true, action: 'pruned', message: 'already gone' };
    if (current.status !== 200)
      return {
        ...failed(ref, undefined, `reading the object to prune failed: ${statusMessage(current)}`),
        prune: true,
      };
    const live = current.body as Record<string, unknown>;
    if (pendingOnly && !(isManaged(live) && appliedBy(live, ctx.fieldManager))) return null;
    if (!isManaged(live)) {
      return {
        ref,
        prune: true,
        action: 'conflict',
        live,
        message: `not pruned: ${describeRef(ref)} on ${ctx.kube.name} is no longer labelled ${MANAGED_LABEL}=true, so it is not ours to delete`,
      };
    }
    const uid = (live.metadata as { uid?: string } | undefined)?.uid;
    ctx.writes++;
    const res = await sendRequest(
      ctx.kube,
      {
        method: 'DELETE',
        path: url,
        query: { propagationPolicy: 'Background' },
        // The uid precondition makes sure we delete the object we just checked, not a successor with the same name.
        ...(uid
          ? {
              body: JSON.stringify({
                kind: 'DeleteOptions',
                apiVersion: 'v1',
                propagationPolicy: 'Background',
                preconditions: { uid },
              }),
              contentType: 'application/json',
            }
          : {}),
      },
      ctx.retry,
    );
    if (res.status === 404) return { ref, prune: true, action: 'pruned', message: 'already gone' };
    if (res.status !== 200 && res.status !== 202)
      return { ...failed(ref, undefined, `delete failed: ${statusMessage(res)}`), prune: true };
    return { ref, prune: true, action: 'pruned', message: 'deleted: no longer in the rendered folder' };
  } catch (err) {
    return { ...failure(ctx, ref, undefined, err), prune: true };
  }
}

/** Polls the CRD until Established=True; returns a problem text on timeout, undefined when established. */
async function waitEstablished(ctx: Ctx, name: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let delay = 20;
  for (;;) {
    if (ctx.unreachable) return ctx.unreachable;
    try {
      const res = await sendRequest(
        ctx.kube,
        { method: 'GET', path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}` },
        ctx.retry,
      );
      const conditions =
        (res.body as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? [];
      if (res.status === 200 && conditions.some((c) => c.type === 'Established' && c.status === 'True'))
        return undefined;
    } catch (err) {
      return noteFailure(ctx, err);
    }
    if (Date.now() + delay > deadline)
      return `CustomResourceDefinition ${name} was not Established within ${timeoutMs} ms`;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 500);
  }
}

/** `<group>/<version>` of every version the CRD serves. */
function servedVersions(crd: Record<string, unknown>): string[] {
  const spec = (crd.spec ?? {}) as { group?: string; versions?: { name: string; served?: boolean }[] };
  return (spec.versions ?? []).filter((v) => v.served !== false).map((v) => `${spec.group}/${v.name}`);
}

function noteFailure(ctx: Ctx, err: unknown): string {
  if (err instanceof KubeUnreachableError) {
    if (ctx.unreachable === undefined) {
      ctx.unreachable = `${err.message}; the remaining objects were not attempted`;
      // The cause in Karmada's words, then Flotilla's own fact after it: this object's request was never sent.
      if (err.error !== undefined)
        ctx.notSent = `${err.error} (not sent: an earlier request to ${ctx.kube.name} failed so)`;
    }
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The 409 of a stale resourceVersion precondition, not a field-manager conflict (those list their fields as causes). */
function isStale(res: { body?: unknown }): boolean {
  const status = res.body as { reason?: string; message?: string; details?: { causes?: unknown[] } } | undefined;
  return (
    status?.reason === 'Conflict' &&
    !status.details?.causes?.length &&
    /the object has been modified/.test(status.message ?? '')
  );
}

function appliedBy(live: Record<string, unknown>, manager: string): boolean {
  const entries = (live.metadata as { managedFields?: { manager?: string }[] } | undefined)?.managedFields ?? [];
  return entries.some((e) => e.manager === manager);
}

/** Rendered from the same source commit as the live object: Git did not change it, so a difference is drift. */
function sameSource(body: Record<string, unknown>, live: Record<string, unknown> | undefined): boolean {
  const source = (o: Record<string, unknown> | undefined) =>
    (o?.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.[SOURCE_COMMIT_ANNOTATION];
  return source(body) !== undefined && source(body) === source(live);
}

function failed(ref: ObjectRef, path: string | undefined, message: string): ApplyResult {
  return { ref, ...(path ? { path } : {}), action: 'failed', message };
}

/** The result with the member's own words for its refusal, when it gave them as a Status. */
function withError(result: ApplyResult, error: string | undefined): ApplyResult {
  return error === undefined ? result : { ...result, error };
}

/** An object held back from a cluster that is not Ready: nothing reached the member, as if it had not answered. */
function notSynced(ref: ObjectRef, path: string, message: string): ApplyResult {
  return { ...failed(ref, path, message), unreachable: true };
}

function unanswered(ref: ObjectRef, path: string | undefined, message: string, error?: string): ApplyResult {
  return { ...withError(failed(ref, path, message), error), unreachable: true };
}

/** An object nothing was sent for, once the member stopped answering. */
function notAttempted(ctx: Ctx, ref: ObjectRef, path: string | undefined): ApplyResult {
  return unanswered(ref, path, ctx.unreachable!, ctx.notSent);
}

/**
 * The result of a request that threw: unanswered when the member did not answer (with client-go's error for the
 * request that got no answer, where one was sent), failed otherwise.
 */
function failure(ctx: Ctx, ref: ObjectRef, path: string | undefined, err: unknown): ApplyResult {
  const message = noteFailure(ctx, err);
  if (err instanceof KubeUnreachableError) return unanswered(ref, path, message, err.error);
  return withError(failed(ref, path, message), err instanceof DiscoveryFailedError ? err.error : undefined);
}
