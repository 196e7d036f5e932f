import { withResourceModels } from './clusterResourceModels.ts';
import {
  APPS_API_VERSION,
  CLUSTER_API_VERSION,
  CONFIG_API_VERSION,
  FLOTILLA_API_VERSION,
  groupOf,
  POLICY_API_VERSION,
  POLICY_KINDS,
} from '../api/kinds.ts';
import type { InterpreterCustomization, ResourceInterpreterCustomization } from '../api/interpreterCustomization.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import {
  validateInterpreterCustomization,
  validateLuaCustomization,
  validateRebalancer,
} from './schema/validateExtensionKinds.ts';
import type { Cluster } from '../api/cluster.ts';
import type { ClusterTaintPolicy, OverridePolicy, PropagationPolicy } from '../api/policy.ts';
import { emptyFileObjects, type FileObjects } from '../api/model.ts';
import type { SourceDocument } from './parseDocuments.ts';
import { validateKarmadaDocument } from './schema/validateKarmadaDocument.ts';
import { findVoidLabelSelectors } from './schema/findVoidLabelSelectors.ts';
import { applyApiserverDefaults } from './applyApiserverDefaults.ts';
import { validateWorkloadNumbers } from './schema/validateWorkloadNumbers.ts';
import { validateBatchKinds } from './schema/validateBatchKinds.ts';
import { validateBuiltinKinds } from './schema/validateBuiltinKinds.ts';
import { validateWorkloadKinds } from './schema/validateWorkloadKinds.ts';
import type { SchemaIssue } from './schema/validateAgainstSchema.ts';
import { IGNORE_FILE } from './selectConfigFiles.ts';
import { validateKarmadaKnownFields, validateKnownFields } from './schema/validateKnownFields.ts';
import { preferredApiVersion, unservedApi } from '../api/servedApis.ts';
import { builtinTypeOf } from '../api/builtinTypes.ts';
import { validateQuantities } from './schema/validateQuantities.ts';
import { formatPath } from './schema/formatPath.ts';
import { validateScalarFields } from './schema/validateScalarFields.ts';
import { validateStringFields } from './schema/validateStringFields.ts';
import { validateBytesFields } from './schema/validateBytesFields.ts';
import { validateMetadataRules, validateObjectMeta } from './schema/validateObjectMeta.ts';
import { storedPolicy } from './storedPolicy.ts';
import { checkObjectIdentity } from './checkObjectName.ts';
import { expandLists, type ListedObject } from './expandLists.ts';
import { karmadaRef } from './karmadaRef.ts';
import { suggestName } from '../text/suggestName.ts';
import { MULTI_CLUSTER_SERVICE_KIND, NETWORKING_API_VERSION } from '../api/multiClusterService.ts';
import { validateMultiClusterService } from './schema/validateMultiClusterService.ts';
import { validateInterpreterWebhooks } from './schema/validateInterpreterWebhooks.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import { validateCronFederatedHpa, validateFederatedHpa } from './schema/validateFederatedHpa.ts';
import { validateFederatedResourceQuota } from './schema/validateFederatedResourceQuota.ts';
import { FEDERATED_RESOURCE_QUOTA_KIND, memberQuotaRef } from '../api/federatedResourceQuota.ts';

/** FederatedHPA and CronFederatedHPA: checked as Karmada's webhooks check them; an invalid one keeps its last decision. */
const AUTOSCALING_API_VERSION = 'autoscaling.karmada.io/v1alpha1';

/** The Karmada kinds Flotilla reads, by API group: an object of these groups is never a resource template. */
const KARMADA_GROUPS: ReadonlyMap<string, { apiVersion: string; kinds: readonly string[] }> = new Map([
  [
    groupOf(POLICY_API_VERSION),
    { apiVersion: POLICY_API_VERSION, kinds: [...POLICY_KINDS, FEDERATED_RESOURCE_QUOTA_KIND] },
  ],
  [groupOf(CLUSTER_API_VERSION), { apiVersion: CLUSTER_API_VERSION, kinds: ['Cluster'] }],
]);

/**
 * Sorts a file's documents into Karmada kinds and resource templates by apiVersion/kind, validates
 * each, and applies Karmada's webhook defaults to its kinds and the kube-apiserver's to templates. Invalid objects are reported and listed as broken.
 */
export function classifyDocuments(
  file: string,
  documents: readonly SourceDocument[],
  parseProblems: readonly Problem[],
): FileObjects {
  const out = emptyFileObjects(file, {
    unreadable: parseProblems.length > 0 && documents.length === 0,
    problems: [...parseProblems],
  });
  // A List document stands for its items, each classified as if it were a document of its own (as kubectl applies it).
  const objects: ListedObject[] = [];
  for (const document of documents) {
    const expanded = expandLists(document);
    objects.push(...expanded.objects);
    out.problems.push(...expanded.problems);
  }
  for (const { doc, label } of objects) {
    // A field that should not be there is shown at its key; any other problem at the value.
    const problem = (path: (string | number)[], code: Problem['code'], message: string, fix: string) =>
      out.problems.push({
        ...doc.locate(path, code === 'UNKNOWN_FIELD' ? 'key' : undefined),
        code,
        severity: 'error',
        message,
        fix,
      });
    const value = doc.value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problem(
        [],
        'NOT_AN_OBJECT',
        `${label} is ${Array.isArray(value) ? 'a list' : typeof value}, not a Kubernetes object`,
        'each YAML document must be a mapping with apiVersion, kind and metadata.name',
      );
      continue;
    }
    const obj = value as Record<string, unknown>;
    const apiVersion = obj.apiVersion;
    const kind = obj.kind;
    const metadata = obj.metadata as Record<string, unknown> | undefined;
    const name = metadata?.name;
    const missing = [
      typeof apiVersion !== 'string' || apiVersion === '' ? 'apiVersion' : null,
      typeof kind !== 'string' || kind === '' ? 'kind' : null,
      typeof name !== 'string' || name === '' ? 'metadata.name' : null,
    ].filter((f): f is string => f !== null);
    const generateName = metadata?.generateName;
    if (missing.length === 1 && missing[0] === 'metadata.name' && typeof generateName === 'string' && generateName) {
      problem(
        ['metadata', 'generateName'],
        'MISSING_FIELD',
        `${label} has metadata.generateName (${generateName}) but no metadata.name: the API server would make up a new name on every create, so no later render could update or remove the object it made`,
        `give it a fixed metadata.name (for a Job run once per change, a name that carries the change, e.g. ${generateName.replace(/-?$/, '-v1')}); Argo CD creates generateName hooks on each sync, Flotilla places named objects only`,
      );
      continue;
    }
    if (missing.length > 0) {
      problem(
        missing[0] === 'metadata.name' ? ['metadata'] : [],
        'MISSING_FIELD',
        `${label} has no ${missing.join(', ')}`,
        missing.includes('apiVersion') && missing.includes('kind')
          ? `add ${missing.join(' and ')}; every object needs apiVersion, kind and metadata.name. If the file holds no Kubernetes objects (values, a ytt overlay, a tool's settings), list it in ${IGNORE_FILE}`
          : `add ${missing.join(' and ')}; every object needs apiVersion, kind and metadata.name`,
      );
      continue;
    }
    const rawNamespace = metadata?.namespace;
    const namespace = typeof rawNamespace === 'string' && rawNamespace !== '' ? rawNamespace : undefined;
    // The identity Karmada's detector sees: an autoscaling/v1 HPA is selected and bound as autoscaling/v2.
    const ref = {
      apiVersion: preferredApiVersion(apiVersion as string, kind as string),
      kind: kind as string,
      name: name as string,
    };

    const identityProblems = checkObjectIdentity({ ...ref, namespace });
    if (identityProblems.length > 0) {
      for (const p of identityProblems)
        problem(p.path, p.path[0] === 'metadata' ? 'INVALID_NAME' : 'INVALID_VALUE', p.message, p.fix);
      // A name Kubernetes refuses but an older Flotilla rendered keeps that output; an unsafe one has no identity to hold.
      if (identityProblems.every((p) => p.pathSafe))
        out.broken.push(
          { ...ref, namespace: namespace ?? 'default' },
          ...(namespace ? [] : [{ ...ref, namespace: '' }]),
        );
      continue;
    }

    const extension = extensionKind(ref.apiVersion, ref.kind);
    if (extension) {
      const own =
        extension === 'rebalancer'
          ? [...validateRebalancer(obj), ...validateMetadataRules(obj)]
          : extension === 'interpreter'
            ? validateInterpreterCustomization(obj)
            : [...validateLuaCustomization(obj), ...validateMetadataRules(obj)];
      const issues = [...own, ...notNamedYet(validateKarmadaKnownFields(obj), own)];
      for (const issue of issues) problem(issue.path, issue.code, issue.message, issue.fix);
      if (issues.length > 0) {
        // Not a template either. A broken rebalancer simply does nothing (a one-time request); a customization keeps
        // its last good definition, as Karmada's webhook refuses the new one and its kind is still interpreted by the old.
        if (extension !== 'rebalancer') out.broken.push(brokenRef(ref, namespace));
        continue;
      }
      if (extension === 'rebalancer')
        out.rebalancers.push({ object: obj as unknown as WorkloadRebalancer, source: doc.source });
      else {
        // Karmada's detector sees such a kind at its preferred version only: a customization of another one is inert.
        const target = (obj.spec as { target: { apiVersion: string; kind: string } }).target;
        const seen = preferredApiVersion(target.apiVersion, target.kind);
        if (seen !== target.apiVersion)
          out.problems.push({
            ...doc.locate(['spec', 'target', 'apiVersion']),
            code: 'INVALID_VALUE',
            severity: 'warning',
            message: `Karmada interprets every ${target.kind} at ${seen}, whichever version it is written in: a customization of ${target.apiVersion} ${target.kind} is never used`,
            fix: `target apiVersion ${seen}; its hooks then get the object in that version's form`,
          });
        out.interpreterCustomizations.push({
          object: obj as unknown as InterpreterCustomization | ResourceInterpreterCustomization,
          source: doc.source,
        });
      }
      continue;
    }

    if (ref.apiVersion === 'config.karmada.io/v1alpha1' && ref.kind === 'ResourceInterpreterWebhookConfiguration') {
      // Never called by Flotilla (README), but one Karmada's webhook refuses could not be created there either.
      const issues = validateInterpreterWebhooks(obj);
      for (const issue of issues) problem(issue.path, issue.code, issue.message, issue.fix);
      if (issues.length > 0) {
        out.broken.push({ ...ref, namespace: namespace ?? 'default' });
        continue;
      }
    }

    if (ref.apiVersion === NETWORKING_API_VERSION && ref.kind === MULTI_CLUSTER_SERVICE_KIND) {
      // Not propagated (the detector skips its group), but read by the render, the applier and the status side.
      const issues = validateMultiClusterService(obj);
      for (const issue of issues) problem(issue.path, issue.code, issue.message, issue.fix);
      if (issues.length > 0) {
        out.broken.push({ ...ref, namespace: namespace ?? 'default' }); // keeps what it rendered before
        continue;
      }
      const fieldSources: Record<string, SourceSpan> = {};
      const spec = obj.spec as Record<string, { name: string }[] | undefined>;
      fieldSources['spec.types'] = doc.locate(['spec', 'types']);
      for (const field of ['providerClusters', 'consumerClusters'])
        (spec[field] ?? []).forEach((_, i) => {
          fieldSources[`spec.${field}[${i}].name`] = doc.locate(['spec', field, i, 'name']);
        });
      out.templates.push({ ref: { ...ref, namespace }, manifest: obj, source: doc.source, fieldSources });
      continue;
    }

    if (ref.apiVersion === POLICY_API_VERSION && ref.kind === FEDERATED_RESOURCE_QUOTA_KIND) {
      const issues = [
        ...validateObjectMeta(obj),
        ...validateKarmadaKnownFields(obj),
        ...validateFederatedResourceQuota(obj),
      ];
      for (const issue of issues) problem(issue.path, issue.code, issue.message, issue.fix);
      // Karmada's webhook refuses it, so the quota it had stays, and so do the ResourceQuotas it made.
      if (issues.length > 0) {
        out.broken.push(memberQuotaRef(namespace ?? 'default', ref.name));
        continue;
      }
      // Held in the model under the identity of what it puts on members (works/federatedQuotaWork.ts makes that).
      const member = memberQuotaRef('', ref.name);
      out.templates.push({ ref: { ...member, namespace }, manifest: obj, source: doc.source });
      continue;
    }

    const isPolicy = ref.apiVersion === POLICY_API_VERSION && (POLICY_KINDS as readonly string[]).includes(ref.kind);
    const isCluster = ref.apiVersion === CLUSTER_API_VERSION && ref.kind === 'Cluster';
    const karmadaGroup = KARMADA_GROUPS.get(groupOf(ref.apiVersion));
    if (!isPolicy && !isCluster && karmadaGroup) {
      // A typo in a Karmada kind or version would otherwise make a policy a template that is never propagated:
      // the policy silently stops existing. It is an error, and whatever this name was keeps its last good definition.
      const knownKind = karmadaGroup.kinds.includes(ref.kind);
      const guess = knownKind ? ref.kind : suggestName(ref.kind, karmadaGroup.kinds);
      if (knownKind) {
        problem(
          ['apiVersion'],
          'INVALID_VALUE',
          `${ref.kind} is served as ${karmadaGroup.apiVersion}, not ${ref.apiVersion}`,
          `set apiVersion: ${karmadaGroup.apiVersion}`,
        );
      } else {
        problem(
          ['kind'],
          'INVALID_VALUE',
          `unknown kind ${ref.kind} in ${ref.apiVersion}${guess ? `; did you mean ${guess}?` : ''}`,
          guess ? `rename it to ${guess}` : `use one of ${karmadaGroup.kinds.join(', ')}`,
        );
      }
      for (const kind of guess ? [guess] : karmadaGroup.kinds) {
        out.broken.push(
          kind === FEDERATED_RESOURCE_QUOTA_KIND
            ? memberQuotaRef(namespace ?? 'default', ref.name)
            : brokenRef({ ...ref, apiVersion: karmadaGroup.apiVersion, kind }, namespace),
        );
      }
      continue;
    }
    if (!isPolicy && !isCluster) {
      const unserved = unservedApi(ref.apiVersion, ref.kind);
      if (unserved) {
        problem(['apiVersion'], 'INVALID_VALUE', unserved.message, unserved.fix);
        out.broken.push({ ...ref, namespace: namespace ?? 'default' }); // keeps what it rendered before
        continue;
      }
      const meta = validateObjectMeta(obj);
      const numbers = [
        ...meta,
        ...(ref.apiVersion === AUTOSCALING_API_VERSION && ref.kind === 'FederatedHPA'
          ? [...validateKarmadaKnownFields(obj), ...validateFederatedHpa(obj)]
          : ref.apiVersion === AUTOSCALING_API_VERSION && ref.kind === 'CronFederatedHPA'
            ? [...validateKarmadaKnownFields(obj), ...validateCronFederatedHpa(obj)]
            : builtinKindIssues(obj, meta.length === 0)),
      ];
      for (const issue of numbers) problem(issue.path, issue.code, issue.message, issue.fix);
      if (numbers.length > 0) {
        out.broken.push({ ...ref, namespace: namespace ?? 'default' }); // keeps what it rendered before
        continue;
      }
      out.templates.push({
        ref: { ...ref, namespace },
        manifest: applyApiserverDefaults(obj),
        source: doc.source,
        // A custom resource's CRD may be in another file: its fields are located once that is read.
        ...(builtinTypeOf(ref.apiVersion, ref.kind) ? {} : { locate: doc.locate }),
      });
      continue;
    }

    const issues = validateKarmadaDocument(ref.kind as Parameters<typeof validateKarmadaDocument>[0], obj);
    for (const issue of issues)
      if (issue.warning)
        out.problems.push({
          ...doc.locate(issue.path),
          code: issue.code,
          severity: 'warning',
          message: issue.message,
          fix: issue.fix,
        });
      else problem(issue.path, issue.code, issue.message, issue.fix);
    if (issues.some((issue) => !issue.warning)) {
      out.broken.push(brokenRef(ref, namespace));
      continue;
    }
    // Used as karmada-apiserver stores it, after the policy webhooks' round trip (it was validated in that form).
    const stored = storedPolicy(ref.kind, obj) as Record<string, unknown>;
    for (const v of findVoidLabelSelectors(stored.spec, ['spec']))
      out.problems.push({
        ...doc.locate(v.path),
        code: 'INVALID_VALUE',
        severity: 'warning',
        message: v.message,
        fix: v.fix,
      });
    const source = doc.source;
    const named = clusterNamePaths(obj);
    const fieldSources =
      named.length > 0 ? Object.fromEntries(named.map((p) => [formatPath(p), doc.locate(p)])) : undefined;
    switch (ref.kind) {
      case 'PropagationPolicy':
      case 'ClusterPropagationPolicy':
        out.propagationPolicies.push({
          object: withPolicyNamespace(stored as unknown as PropagationPolicy),
          source,
          ...(fieldSources ? { fieldSources } : {}),
        });
        break;
      case 'OverridePolicy':
      case 'ClusterOverridePolicy':
        out.overridePolicies.push({
          object: withPolicyNamespace(stored as unknown as OverridePolicy),
          source,
          ...(fieldSources ? { fieldSources } : {}),
        });
        break;
      case 'ClusterTaintPolicy':
        out.clusterTaintPolicies.push({ object: obj as unknown as ClusterTaintPolicy, source });
        break;
      case 'Cluster':
        out.clusters.push({ object: normalizeCluster(obj as unknown as Cluster), source });
        break;
    }
  }
  return out;
}

/**
 * The paths of every cluster a policy names (placement.clusterAffinity and clusterAffinities[].clusterNames, an
 * override rule's or the deprecated targetCluster's clusterNames): `validate` says where one is not registered.
 */
function clusterNamePaths(policy: Record<string, unknown>): (string | number)[][] {
  type Affinity = { clusterNames?: unknown } | undefined;
  const spec = (policy.spec ?? {}) as {
    placement?: { clusterAffinity?: Affinity; clusterAffinities?: unknown };
    targetCluster?: Affinity;
    overrideRules?: unknown;
  };
  const out: (string | number)[][] = [];
  const names = (affinity: Affinity, at: (string | number)[]) => {
    const list = affinity?.clusterNames;
    if (Array.isArray(list)) list.forEach((n, i) => typeof n === 'string' && out.push([...at, 'clusterNames', i]));
  };
  /** Each item of a list, or the `key` field of each, as an affinity. */
  const each = (list: unknown, at: (string | number)[], key?: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      if (item === null || typeof item !== 'object') return;
      const affinity = key ? (item as Record<string, unknown>)[key] : item;
      names(affinity as Affinity, [...at, i, ...(key ? [key] : [])]);
    });
  };
  names(spec.placement?.clusterAffinity, ['spec', 'placement', 'clusterAffinity']);
  each(spec.placement?.clusterAffinities, ['spec', 'placement', 'clusterAffinities']);
  names(spec.targetCluster, ['spec', 'targetCluster']);
  each(spec.overrideRules, ['spec', 'overrideRules'], 'targetCluster');
  return out;
}

/** A namespaced policy without metadata.namespace lands in `default`, as kubectl sends it. */
/**
 * A built-in kind's issues. The workload rules read a template as the API server decodes it, so they run only when
 * it decodes and its metadata is valid: a field of the wrong type or an unparsable quantity is refused before
 * validation, alone, and a template's own metadata errors come first.
 */
function builtinKindIssues(obj: Record<string, unknown>, metaValid: boolean): SchemaIssue[] {
  const knownFields = validateKnownFields(obj);
  const numbers = validateWorkloadNumbers(obj);
  const batch = validateBatchKinds(obj);
  const builtin = validateBuiltinKinds(obj);
  const strings = validateStringFields(obj);
  const bytes = validateBytesFields(obj);
  const quantities = validateQuantities(obj);
  // A replica count the workload rules refuse already is said once.
  const counted = new Set(numbers.map((n) => JSON.stringify(n.path)));
  const scalars = validateScalarFields(obj).filter((s) => !counted.has(JSON.stringify(s.path)));
  const decodes =
    metaValid &&
    knownFields.length + numbers.length + scalars.length + strings.length + bytes.length + quantities.length === 0;
  return [
    ...knownFields,
    ...numbers,
    ...scalars,
    ...batch,
    ...builtin,
    ...strings,
    ...bytes,
    ...quantities,
    ...(decodes ? validateWorkloadKinds(obj) : []),
  ];
}

function withPolicyNamespace<P extends OverridePolicy | PropagationPolicy>(policy: P): P {
  if (policy.kind.startsWith('Cluster') || policy.metadata.namespace) return policy;
  return { ...policy, metadata: { ...policy.metadata, namespace: 'default' } };
}

/** Admission moves a legacy spec.zone into spec.zones and defaults resource models (pkg/apis/cluster/mutation). */
function normalizeCluster(cluster: Cluster): Cluster {
  const modeled = withResourceModels(cluster);
  if (!modeled.spec.zone || (modeled.spec.zones && modeled.spec.zones.length > 0)) return modeled;
  const { zone, ...spec } = modeled.spec;
  return { ...modeled, spec: { ...spec, zones: [zone] } };
}

/** Kinds that are configuration for Flotilla itself, not resource templates to propagate. */
function extensionKind(apiVersion: string, kind: string): 'rebalancer' | 'interpreter' | 'lua' | undefined {
  if (apiVersion === APPS_API_VERSION && kind === 'WorkloadRebalancer') return 'rebalancer';
  if (apiVersion === FLOTILLA_API_VERSION && kind === 'InterpreterCustomization') return 'interpreter';
  if (apiVersion === CONFIG_API_VERSION && kind === 'ResourceInterpreterCustomization') return 'lua';
  return undefined;
}

/** Unknown fields the kind's own checks did not name already (a customization's unknown hook, say). */
function notNamedYet<I extends { path: (string | number)[] }>(
  unknown: I[],
  own: { path: (string | number)[]; code: string }[],
): I[] {
  const named = new Set(own.filter((o) => o.code === 'UNKNOWN_FIELD').map((o) => JSON.stringify(o.path)));
  return unknown.filter((u) => !named.has(JSON.stringify(u.path)));
}

/** The identity of an object that does not validate: it keeps its last good definition (outputs/lastGoodKarmada.ts). */
function brokenRef(ref: { apiVersion: string; kind: string; name: string }, namespace: string | undefined) {
  return karmadaRef({
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { name: ref.name, ...(namespace ? { namespace } : {}) },
  });
}
