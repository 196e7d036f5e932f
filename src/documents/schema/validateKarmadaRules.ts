// Karmada's admission rules beyond structure (pkg/util/validation/validation.go,
// pkg/apis/cluster/validation/validation.go and the policy webhooks). A PropagationPolicy,
// ClusterPropagationPolicy or OverridePolicy is checked in the form Karmada stores it
// (src/documents/storedPolicy.ts: webhook defaults, JSON round trip, CRD defaults); the defaults the
// webhook fills (spreadByField cluster, minGroups 1, gracePeriodSeconds 600) are still taken
// into account for a fragment checked as written.
// Defensive on shape: anything the schema rejects is skipped here, never reported twice.
import { MCS_API_VERSION } from '../../api/kinds.ts';
import type { KarmadaKind } from './karmadaSchemas.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';
import { isPlainObject, preview } from './validateAgainstSchema.ts';
import { formatPath } from './formatPath.ts';
import { relativeNameProblem } from '../../confinement/readConfinedFile.ts';
import { identityFieldAt } from '../../overrides/overrideIdentity.ts';
import { patchPathPointer } from '../../patches/jsonPatch.ts';
import { labelValueProblems, qualifiedNameProblems } from '../../labels/labelFormats.ts';
import { TOTAL_ANNOTATION_BYTES } from '../../labels/objectMetaRules.ts';
import { isDNS1123Label, isJSONPointer } from './kubernetesNames.ts';
import { parseQuantity, type Quantity } from '../../quantities/parseQuantity.ts';
import { compareQuantities } from '../../quantities/resourceLists.ts';

export interface KarmadaRuleOptions {
  /** Namespace a namespaced policy lands in when metadata.namespace is not set. Default "default", as kubectl does. */
  defaultNamespace?: string;
}

type Path = (string | number)[];
type Obj = Record<string, unknown>;

const CLUSTER_NAME_MAX_LENGTH = 48;
/** Kubernetes' Toleration.ToleratesTaint: any other operator or effect matches no taint. */
const TOLERATION_OPERATORS = ['', 'Exists', 'Equal'];
const TOLERATION_EFFECTS = ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateKarmadaRules(
  kind: KarmadaKind,
  value: unknown,
  options: KarmadaRuleOptions = {},
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!isPlainObject(value)) return issues;
  const spec = objectAt(value, 'spec');
  const metadata = objectAt(value, 'metadata');
  const namespaced = kind === 'PropagationPolicy' || kind === 'OverridePolicy';
  const policyNamespace = namespaced
    ? stringAt(metadata, 'namespace') || options.defaultNamespace || 'default'
    : undefined;
  switch (kind) {
    case 'PropagationPolicy':
    case 'ClusterPropagationPolicy':
      if (spec) validatePropagationSpec(spec, policyNamespace, issues);
      if (spec?.activationPreference === 'Lazy')
        issues.push({
          path: ['spec', 'activationPreference'],
          code: 'INVALID_VALUE',
          message:
            'activationPreference Lazy is not honoured: a render is a function of its commit, so changes to this policy reach the templates it claims at once',
          fix: 'remove it, or change this policy in the same commit as the templates it should reach',
          warning: true,
        });
      break;
    case 'OverridePolicy':
    case 'ClusterOverridePolicy':
      if (spec) validateOverrideSpec(spec, policyNamespace, issues);
      break;
    case 'Cluster':
      validateClusterName(metadata, issues);
      if (spec) validateClusterSpec(spec, issues);
      break;
    case 'ClusterTaintPolicy':
      if (spec) validateClusterTaintPolicySpec(spec, issues);
      break;
  }
  return issues;
}

function invalid(issues: SchemaIssue[], path: Path, message: string, fix: string): void {
  issues.push({ path, code: 'INVALID_VALUE', message, fix });
}

// ---------------------------------------------------------------- PropagationPolicy

function validatePropagationSpec(spec: Obj, policyNamespace: string | undefined, issues: SchemaIssue[]): void {
  const selectors = arrayAt(spec, 'resourceSelectors');
  const placement = objectAt(spec, 'placement');
  if (placement) validatePlacement(placement, ['spec', 'placement'], issues);

  const failover = objectAt(spec, 'failover');
  const application = objectAt(failover, 'application');
  if (application) {
    const selectsServiceImport = selectors.some(
      (s) => isPlainObject(s) && s.kind === 'ServiceImport' && s.apiVersion === MCS_API_VERSION,
    );
    // The mutating webhook forces propagateDeps on for ServiceImport selectors.
    if (spec.propagateDeps !== true && !selectsServiceImport) {
      invalid(
        issues,
        ['spec', 'propagateDeps'],
        'spec.failover.application is set, so spec.propagateDeps must be true (the dependencies must follow the workload when it fails over)',
        'set spec.propagateDeps: true, or remove spec.failover.application',
      );
    }
    validateApplicationFailover(application, ['spec', 'failover', 'application'], issues);
  }
  const clusterFailover = objectAt(failover, 'cluster');
  const clusterPreservation = objectAt(clusterFailover, 'statePreservation');
  if (clusterPreservation)
    validateStatePreservation(clusterPreservation, ['spec', 'failover', 'cluster', 'statePreservation'], issues);

  if (policyNamespace !== undefined) validateSelectorNamespaces(selectors, policyNamespace, issues);

  if (spec.preemption === 'Always') {
    selectors.forEach((selector, i) => {
      if (!isPlainObject(selector)) return;
      if (typeof selector.name !== 'string' || selector.name === '') {
        const path = ['spec', 'resourceSelectors', i, 'name'];
        invalid(
          issues,
          path,
          `${formatPath(path)} is empty, but spec.preemption is Always; preempting with a selector that has no name could take over unrelated resources`,
          `set ${formatPath(path)} to the name of the resource to preempt, or set spec.preemption: Never`,
        );
      }
    });
    // Karmada's PropagationPolicyPreemption gate is alpha and off (pkg/features): its detector logs that it cannot
    // preempt and leaves every claim where it is, as Flotilla's render does.
    issues.push({
      path: ['spec', 'preemption'],
      code: 'INVALID_VALUE',
      message:
        "spec.preemption Always is not honoured: Karmada's PropagationPolicyPreemption feature is alpha and off by default, and Flotilla matches policies as Karmada does without it, so a template another policy has claimed stays with that policy",
      fix: 'remove it; to hand a template to this policy, delete the policy that claims it (or narrow its resourceSelectors) in the same commit',
      warning: true,
    });
  }

  const suspension = objectAt(spec, 'suspension');
  if (suspension && suspension.dispatching === true) {
    const names = arrayAt(objectAt(suspension, 'dispatchingOnClusters'), 'clusterNames');
    if (names.length > 0) {
      invalid(
        issues,
        ['spec', 'suspension'],
        'spec.suspension.dispatching: true cannot be combined with spec.suspension.dispatchingOnClusters.clusterNames',
        'keep only one: dispatching: true suspends every cluster, dispatchingOnClusters.clusterNames suspends only the listed ones',
      );
    }
  }
}

function validatePlacement(placement: Obj, path: Path, issues: SchemaIssue[]): void {
  const hasAffinity = placement.clusterAffinity !== undefined && placement.clusterAffinity !== null;
  const hasAffinities = placement.clusterAffinities !== undefined && placement.clusterAffinities !== null;
  if (hasAffinity && hasAffinities) {
    invalid(
      issues,
      [...path, 'clusterAffinities'],
      `${formatPath(path)}.clusterAffinity and ${formatPath(path)}.clusterAffinities cannot both be set`,
      `keep only one: delete ${formatPath(path)}.clusterAffinity, or move it into a ${formatPath(path)}.clusterAffinities term`,
    );
  }
  const affinity = objectAt(placement, 'clusterAffinity');
  if (affinity) validateFieldSelector(affinity, [...path, 'clusterAffinity'], issues);

  const overflowAllowed = isOverflowSchedulingAllowed(objectAt(placement, 'replicaScheduling'));
  const names = new Map<string, number>();
  arrayAt(placement, 'clusterAffinities').forEach((term, i) => {
    if (!isPlainObject(term)) return;
    const termPath = [...path, 'clusterAffinities', i];
    if (typeof term.affinityName === 'string') {
      validateAffinityName(term.affinityName, [...termPath, 'affinityName'], issues);
      const first = names.get(term.affinityName);
      if (first !== undefined) {
        invalid(
          issues,
          [...termPath, 'affinityName'],
          `${formatPath([...termPath, 'affinityName'])} is ${preview(term.affinityName)}, the same as ${formatPath([...path, 'clusterAffinities', first, 'affinityName'])}; each term needs a unique name`,
          `rename ${formatPath([...termPath, 'affinityName'])} to a name no other term uses`,
        );
      } else {
        names.set(term.affinityName, i);
      }
    }
    validateFieldSelector(term, termPath, issues);
    if (term.overflowAffinities !== undefined && term.overflowAffinities !== null) {
      validateOverflowAffinities(term, termPath, overflowAllowed, issues);
    }
  });

  validateSpreadConstraints(arrayAt(placement, 'spreadConstraints'), [...path, 'spreadConstraints'], issues);

  const workloadAffinity = objectAt(placement, 'workloadAffinity');
  if (workloadAffinity) {
    const waPath = [...path, 'workloadAffinity'];
    const before = issues.length;
    const keys: Record<string, string | undefined> = {};
    for (const part of ['affinity', 'antiAffinity'] as const) {
      const key = stringAt(objectAt(workloadAffinity, part), 'groupByLabelKey');
      keys[part] = key;
      if (key === undefined) continue;
      const keyPath = [...waPath, part, 'groupByLabelKey'];
      for (const problem of qualifiedNameProblems(key)) {
        invalid(
          issues,
          keyPath,
          `${formatPath(keyPath)} is ${preview(key)}, which is not a valid label key: ${problem}`,
          `use a label key such as app.kubernetes.io/name`,
        );
      }
    }
    if (keys.affinity !== undefined && keys.affinity === keys.antiAffinity) {
      invalid(
        issues,
        waPath,
        `${formatPath(waPath)}.affinity and .antiAffinity both group by ${preview(keys.affinity)}; a workload cannot be attracted to and repelled by the same group`,
        'use a different groupByLabelKey for affinity and antiAffinity, or keep only one of them',
      );
    } else if (issues.length === before)
      // Karmada's WorkloadAffinity feature gate is alpha and off (pkg/features): the detector and scheduler ignore it.
      issues.push({
        path: waPath,
        code: 'INVALID_VALUE',
        message: `${formatPath(waPath)} is not honoured: Karmada's WorkloadAffinity feature is alpha and off by default, and Flotilla schedules as Karmada does without it, so workloads are placed as if it were not set`,
        fix: 'remove it, or spread workloads apart with spreadConstraints or separate clusterAffinity terms',
        warning: true,
      });
  }

  arrayAt(placement, 'clusterTolerations').forEach((toleration, i) => {
    if (!isPlainObject(toleration)) return;
    if (toleration.operator === 'Lt' || toleration.operator === 'Gt') {
      const opPath = [...path, 'clusterTolerations', i, 'operator'];
      invalid(
        issues,
        opPath,
        `${formatPath(opPath)} is ${toleration.operator}; Karmada does not support Lt/Gt for cluster tolerations`,
        'use one of: Exists, Equal',
      );
    } else if (typeof toleration.operator === 'string' && !TOLERATION_OPERATORS.includes(toleration.operator)) {
      const opPath = [...path, 'clusterTolerations', i, 'operator'];
      issues.push({
        path: opPath,
        code: 'INVALID_VALUE',
        message: `${formatPath(opPath)} is ${preview(toleration.operator)}: Karmada admits it (its CRD has no enum, its webhook refuses only Lt and Gt), but a toleration with another operator than Exists or Equal tolerates no taint`,
        fix: 'use Exists, or Equal with a value',
        warning: true,
      });
    }
    if (typeof toleration.effect === 'string' && !TOLERATION_EFFECTS.includes(toleration.effect)) {
      const effectPath = [...path, 'clusterTolerations', i, 'effect'];
      issues.push({
        path: effectPath,
        code: 'INVALID_VALUE',
        message: `${formatPath(effectPath)} is ${preview(toleration.effect)}: Karmada admits it (its CRD has no enum), but no cluster taint has that effect, so this toleration tolerates no taint`,
        fix: 'use NoSchedule or NoExecute, or leave effect out to tolerate every effect',
        warning: true,
      });
    }
  });

  const staticWeights = arrayAt(
    objectAt(objectAt(placement, 'replicaScheduling'), 'weightPreference'),
    'staticWeightList',
  );
  staticWeights.forEach((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.weight !== 'number' || !Number.isInteger(entry.weight)) return;
    if (entry.weight < 1) {
      const wPath = [...path, 'replicaScheduling', 'weightPreference', 'staticWeightList', i, 'weight'];
      invalid(
        issues,
        wPath,
        `${formatPath(wPath)} is ${entry.weight}; a weight must be at least 1`,
        `set ${formatPath(wPath)} to 1 or more, or remove the entry to leave those clusters out`,
      );
    }
  });
}

/** Overflow tiers need replicas that can spill over: Divided with Aggregated, or Weighted by dynamic weight. */
function isOverflowSchedulingAllowed(replicaScheduling: Obj | undefined): boolean {
  if (!replicaScheduling) return false;
  // CRD default: Divided. The preference is read as stored, with no default: the webhook made a Divided one Weighted,
  // and one stored without (its type written "", which the webhook did not take for Divided) allows no overflow.
  const type = stringAt(replicaScheduling, 'replicaSchedulingType') || 'Divided';
  if (type !== 'Divided') return false;
  const preference = stringAt(replicaScheduling, 'replicaDivisionPreference');
  if (preference === 'Aggregated') return true;
  return preference === 'Weighted' && !!stringAt(objectAt(replicaScheduling, 'weightPreference'), 'dynamicWeight');
}

function validateOverflowAffinities(term: Obj, termPath: Path, overflowAllowed: boolean, issues: SchemaIssue[]): void {
  const ofPath = [...termPath, 'overflowAffinities'];
  if (!overflowAllowed) {
    invalid(
      issues,
      ofPath,
      `${formatPath(ofPath)} is set, but overflow needs Divided scheduling with Aggregated, or Weighted with dynamicWeight`,
      'set placement.replicaScheduling to replicaSchedulingType: Divided with replicaDivisionPreference: Aggregated (or weightPreference.dynamicWeight: AvailableReplicas), or remove overflowAffinities',
    );
  }
  const inlineEmpty = ['labelSelector', 'fieldSelector', 'clusterNames', 'exclude'].every((k) => {
    const v = term[k];
    return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  });
  if (inlineEmpty) {
    invalid(
      issues,
      ofPath,
      `${formatPath(ofPath)} is set, but ${formatPath(termPath)} selects no primary clusters of its own`,
      `add clusterNames, labelSelector or fieldSelector to ${formatPath(termPath)}, or remove overflowAffinities`,
    );
  }
  const seen = new Set<string>(typeof term.affinityName === 'string' ? [term.affinityName] : []);
  arrayAt(term, 'overflowAffinities').forEach((overflow, i) => {
    if (!isPlainObject(overflow)) return;
    const oPath = [...ofPath, i];
    if (typeof overflow.affinityName === 'string') {
      const namePath = [...oPath, 'affinityName'];
      validateAffinityName(overflow.affinityName, namePath, issues);
      if (seen.has(overflow.affinityName)) {
        invalid(
          issues,
          namePath,
          `${formatPath(namePath)} is ${preview(overflow.affinityName)}, which is already used by this term or another of its overflow affinities`,
          `rename ${formatPath(namePath)} to a unique name`,
        );
      }
      seen.add(overflow.affinityName);
    }
    validateFieldSelector(overflow, oPath, issues);
  });
}

function validateAffinityName(name: string, path: Path, issues: SchemaIssue[]): void {
  if (name.length < 1 || name.length > 32) {
    invalid(
      issues,
      path,
      `${formatPath(path)} is ${name.length} characters long; it must be 1 to 32 characters`,
      name.length === 0
        ? `give ${formatPath(path)} a name, e.g. primary`
        : `shorten ${formatPath(path)} to at most 32 characters`,
    );
    return;
  }
  for (const problem of qualifiedNameProblems(name)) {
    invalid(
      issues,
      path,
      `${formatPath(path)} is ${preview(name)}, which is not a valid name: ${problem}`,
      `use letters, digits, "-", "_" and ".", e.g. primary or backup-1`,
    );
  }
}

const FIELD_SELECTOR_KEYS = ['provider', 'region', 'zone'];
const FIELD_SELECTOR_OPERATORS = ['In', 'NotIn'];

/**
 * The rules a placement's clusterAffinity is held to beyond its structure, for a ClusterAffinity written elsewhere (a
 * scoped unit's options), so its problems read as a policy's do. `path` leads to the affinity.
 */
export function validateClusterAffinityRules(affinity: unknown, path: Path): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (isPlainObject(affinity)) validateFieldSelector(affinity, path, issues);
  return issues;
}

/** `affinity` is any ClusterAffinity-shaped object; only its fieldSelector is checked. */
function validateFieldSelector(affinity: Obj, path: Path, issues: SchemaIssue[]): void {
  arrayAt(objectAt(affinity, 'fieldSelector'), 'matchExpressions').forEach((expression, i) => {
    if (!isPlainObject(expression)) return;
    const ePath = [...path, 'fieldSelector', 'matchExpressions', i];
    if (typeof expression.key === 'string' && !FIELD_SELECTOR_KEYS.includes(expression.key)) {
      invalid(
        issues,
        [...ePath, 'key'],
        `${formatPath([...ePath, 'key'])} is ${preview(expression.key)}; a cluster fieldSelector can only use provider, region or zone`,
        `use one of: ${FIELD_SELECTOR_KEYS.join(', ')} (select on cluster labels with labelSelector instead)`,
      );
    }
    if (typeof expression.operator === 'string' && !FIELD_SELECTOR_OPERATORS.includes(expression.operator)) {
      invalid(
        issues,
        [...ePath, 'operator'],
        `${formatPath([...ePath, 'operator'])} is ${preview(expression.operator)}; a cluster fieldSelector supports only In and NotIn`,
        `use one of: ${FIELD_SELECTOR_OPERATORS.join(', ')}`,
      );
    }
  });
}

function validateSpreadConstraints(constraints: unknown[], path: Path, issues: SchemaIssue[]): void {
  const firstByField = new Map<string, number>();
  const reportedDuplicate = new Set<string>();
  constraints.forEach((constraint, i) => {
    if (!isPlainObject(constraint)) return;
    const cPath = [...path, i];
    const byField = stringAt(constraint, 'spreadByField');
    const byLabel = stringAt(constraint, 'spreadByLabel');
    if (byField && byLabel) {
      invalid(
        issues,
        cPath,
        `${formatPath(cPath)} sets both spreadByField and spreadByLabel; a constraint spreads by one of them`,
        `remove spreadByLabel or spreadByField from ${formatPath(cPath)}`,
      );
    }
    const min = integerAt(constraint, 'minGroups');
    const max = integerAt(constraint, 'maxGroups');
    if (min !== undefined && min < 0)
      invalid(
        issues,
        [...cPath, 'minGroups'],
        `${formatPath([...cPath, 'minGroups'])} is ${min}; it cannot be negative`,
        `set ${formatPath([...cPath, 'minGroups'])} to 1 or more`,
      );
    if (max !== undefined && max < 0)
      invalid(
        issues,
        [...cPath, 'maxGroups'],
        `${formatPath([...cPath, 'maxGroups'])} is ${max}; it cannot be negative`,
        `set ${formatPath([...cPath, 'maxGroups'])} to at least minGroups`,
      );
    // The webhook turns minGroups 0 into 1; maxGroups 0 means unset.
    const effectiveMin = min === undefined || min === 0 ? 1 : min;
    if (max !== undefined && max > 0 && max < effectiveMin) {
      invalid(
        issues,
        [...cPath, 'maxGroups'],
        `${formatPath([...cPath, 'maxGroups'])} is ${max}, less than minGroups ${effectiveMin}`,
        `raise ${formatPath([...cPath, 'maxGroups'])} to at least ${effectiveMin}, or lower minGroups`,
      );
    }
    // The webhook defaults a constraint with neither field nor label to spreadByField: cluster.
    const field = byField || (byLabel ? undefined : 'cluster');
    if (field === undefined) return;
    const first = firstByField.get(field);
    if (first === undefined) {
      firstByField.set(field, i);
    } else if (!reportedDuplicate.has(field)) {
      reportedDuplicate.add(field);
      invalid(
        issues,
        [...cPath, 'spreadByField'],
        `${formatPath(cPath)} spreads by ${field} again (already ${formatPath([...path, first])}); only one constraint per field is allowed`,
        `merge ${formatPath(cPath)} into ${formatPath([...path, first])}`,
      );
    }
  });
  if (firstByField.size > 0 && !firstByField.has('cluster')) {
    const fields = [...firstByField.keys()].join(', ');
    invalid(
      issues,
      path,
      `${formatPath(path)} spreads by ${fields} without a cluster constraint; a cluster constraint is required whenever spreadByField is used`,
      `add an entry to ${formatPath(path)} with spreadByField: cluster and minGroups/maxGroups for how many clusters to pick`,
    );
  }
}

function validateApplicationFailover(application: Obj, path: Path, issues: SchemaIssue[]): void {
  const toleration = integerAt(objectAt(application, 'decisionConditions'), 'tolerationSeconds');
  if (toleration !== undefined && toleration < 0) {
    const tPath = [...path, 'decisionConditions', 'tolerationSeconds'];
    invalid(
      issues,
      tPath,
      `${formatPath(tPath)} is ${toleration}; it must be 0 or more`,
      `set ${formatPath(tPath)} to 0 or more (default 300)`,
    );
  }
  // CRD default purgeMode: Gracefully; the webhook then defaults gracePeriodSeconds to 600.
  const purgeMode = stringAt(application, 'purgeMode') || 'Gracefully';
  const grace = application.gracePeriodSeconds;
  const gPath = [...path, 'gracePeriodSeconds'];
  // Stored Gracefully without a grace period: a purgeMode written "" got no default grace period from the webhook
  // (it is not Gracefully yet when the webhook reads it), and the CRD then defaulted it to Gracefully.
  if (stringAt(application, 'purgeMode') === 'Gracefully' && (grace === undefined || grace === null)) {
    invalid(
      issues,
      gPath,
      `${formatPath(gPath)} is not set, but purgeMode is Gracefully (Karmada's webhook gives a grace period of 600 only to a purgeMode that is missing or written Gracefully, not to one written "")`,
      `remove the empty ${formatPath([...path, 'purgeMode'])}, or set ${formatPath(gPath)}`,
    );
  }
  if (grace !== undefined && grace !== null && purgeMode !== 'Gracefully') {
    invalid(
      issues,
      gPath,
      `${formatPath(gPath)} is set, but it only applies when purgeMode is Gracefully (purgeMode is ${purgeMode})`,
      `remove ${formatPath(gPath)}, or set ${formatPath([...path, 'purgeMode'])}: Gracefully`,
    );
  }
  if (typeof grace === 'number' && Number.isInteger(grace) && grace <= 0) {
    invalid(
      issues,
      gPath,
      `${formatPath(gPath)} is ${grace}; it must be greater than 0`,
      `set ${formatPath(gPath)} to a positive number of seconds, e.g. 600`,
    );
  }
  const preservation = objectAt(application, 'statePreservation');
  if (preservation) validateStatePreservation(preservation, [...path, 'statePreservation'], issues);
}

function validateStatePreservation(preservation: Obj, path: Path, issues: SchemaIssue[]): void {
  arrayAt(preservation, 'rules').forEach((rule, i) => {
    const name = stringAt(isPlainObject(rule) ? rule : undefined, 'aliasLabelName');
    if (name === undefined) return;
    const nPath = [...path, 'rules', i, 'aliasLabelName'];
    for (const problem of qualifiedNameProblems(name)) {
      invalid(
        issues,
        nPath,
        `${formatPath(nPath)} is ${preview(name)}, which is not a valid label key: ${problem}`,
        'use a label key such as failover.example.com/replicas',
      );
    }
  });
}

function validateSelectorNamespaces(selectors: unknown[], policyNamespace: string, issues: SchemaIssue[]): void {
  selectors.forEach((selector, i) => {
    if (!isPlainObject(selector)) return;
    const ns = selector.namespace;
    // An empty namespace is defaulted to the policy's own by the mutating webhook.
    if (typeof ns === 'string' && ns !== '' && ns !== policyNamespace) {
      const path = ['spec', 'resourceSelectors', i, 'namespace'];
      invalid(
        issues,
        path,
        `${formatPath(path)} is ${preview(ns)}, but the policy is in namespace ${preview(policyNamespace)}; a namespaced policy only selects resources in its own namespace`,
        `remove ${formatPath(path)} (it defaults to ${policyNamespace}), or move the policy to namespace ${ns}, or use a cluster-scoped policy`,
      );
    }
  });
}

// ---------------------------------------------------------------- OverridePolicy

/**
 * The overriders whose presence in the deprecated spec.overriders clashes with spec.overrideRules (Karmada's
 * emptyOverrides). fieldOverrider, added later, is not among them: Karmada admits it there and, rules being given,
 * never reads it.
 */
const CLASHING_OVERRIDER_KINDS = [
  'plaintext',
  'imageOverrider',
  'commandOverrider',
  'argsOverrider',
  'labelsOverrider',
  'annotationsOverrider',
];

function validateOverrideSpec(spec: Obj, policyNamespace: string | undefined, issues: SchemaIssue[]): void {
  const hasRules = spec.overrideRules !== undefined && spec.overrideRules !== null;
  const targetCluster = objectAt(spec, 'targetCluster');
  if (targetCluster) validateFieldSelector(targetCluster, ['spec', 'targetCluster'], issues);
  if (targetCluster && hasRules) {
    invalid(
      issues,
      ['spec', 'targetCluster'],
      'spec.targetCluster (deprecated) cannot be combined with spec.overrideRules',
      'move spec.targetCluster into each spec.overrideRules[] entry as targetCluster, then delete it',
    );
  }
  const overriders = objectAt(spec, 'overriders');
  if (overriders && hasRules && CLASHING_OVERRIDER_KINDS.some((k) => arrayAt(overriders, k).length > 0)) {
    invalid(
      issues,
      ['spec', 'overriders'],
      'spec.overriders (deprecated) cannot be combined with spec.overrideRules',
      'move spec.overriders into a spec.overrideRules[] entry as overriders, then delete it',
    );
  }
  if (overriders) {
    // ValidateOverrideSpec checks overrideRules only: the deprecated spec.overriders is admitted as written and what
    // does not apply fails where it is applied. Warnings here, but for an identity path, Flotilla's own refusal.
    const found: SchemaIssue[] = [];
    validateOverriders(overriders, ['spec', 'overriders'], found);
    for (const issue of found)
      issues.push(
        IDENTITY_ISSUES.has(issue) || issue.warning
          ? issue
          : {
              ...issue,
              message: `${issue.message} (Karmada's webhook does not check the deprecated spec.overriders: it admits this, and applying it may fail on the clusters it targets)`,
              warning: true,
            },
      );
  }
  arrayAt(spec, 'overrideRules').forEach((rule, i) => {
    if (!isPlainObject(rule)) return;
    const rulePath = ['spec', 'overrideRules', i];
    const ruleOverriders = objectAt(rule, 'overriders');
    if (ruleOverriders) validateOverriders(ruleOverriders, [...rulePath, 'overriders'], issues);
    const target = objectAt(rule, 'targetCluster');
    if (target) validateFieldSelector(target, [...rulePath, 'targetCluster'], issues);
  });
  if (policyNamespace !== undefined)
    validateSelectorNamespaces(arrayAt(spec, 'resourceSelectors'), policyNamespace, issues);
}

function validateOverriders(overriders: Obj, path: Path, issues: SchemaIssue[]): void {
  arrayAt(overriders, 'plaintext').forEach((entry, i) => {
    if (!isPlainObject(entry)) return;
    const ePath = [...path, 'plaintext', i];
    // Karmada's webhook reads no plaintext overrider: a bad path or value fails when the rule is applied, on each
    // cluster it targets (which keeps its previous manifest). Said here, the policy still valid.
    const admitted: SchemaIssue[] = [];
    // evanphx/json-patch ignores what comes before a path's first "/": such a path patches somewhere else.
    const pointer = typeof entry.path === 'string' ? patchPathPointer(entry.path) : undefined;
    if (pointer !== undefined && pointer !== entry.path)
      issues.push({
        path: [...ePath, 'path'],
        code: 'INVALID_VALUE',
        message: `${formatPath([...ePath, 'path'])} is ${preview(entry.path)}, which is not a JSON pointer; Karmada's JSON patch drops what comes before its first "/" and patches ${pointer}`,
        fix: `start it with "/", e.g. /${String(entry.path)
          .replace(/^[./]+/, '')
          .replace(/\./g, '/')}`,
        warning: true,
      });
    else validatePointer(entry.path, [...ePath, 'path'], admitted);
    // A remove's value is left unread by the JSON patch it becomes (evanphx/json-patch's remove), so it is no mistake.
    if (entry.operator !== 'remove') validateOperatorValue(entry, ePath, admitted);
    for (const issue of admitted)
      issues.push({
        ...issue,
        message: `${issue.message}; applying it will fail on every cluster the rule targets`,
        warning: true,
      });
    validateNotIdentity(pointer ?? entry.path, [...ePath, 'path'], issues);
  });
  arrayAt(overriders, 'imageOverrider').forEach((entry, i) => {
    if (!isPlainObject(entry)) return;
    validatePointer(objectAt(entry, 'predicate')?.path, [...path, 'imageOverrider', i, 'predicate', 'path'], issues);
    validateNotIdentity(
      objectAt(entry, 'predicate')?.path,
      [...path, 'imageOverrider', i, 'predicate', 'path'],
      issues,
    );
  });
  arrayAt(overriders, 'labelsOverrider').forEach((entry, i) => {
    const value = isPlainObject(entry) ? objectAt(entry, 'value') : undefined;
    if (!value) return;
    const vPath = [...path, 'labelsOverrider', i, 'value'];
    for (const [key, labelValue] of Object.entries(value)) {
      for (const problem of qualifiedNameProblems(key)) {
        invalid(
          issues,
          [...vPath, key],
          `label key ${preview(key)} in ${formatPath(vPath)} is not valid: ${problem}`,
          'use a label key such as app.kubernetes.io/name',
        );
      }
      if (typeof labelValue !== 'string') continue;
      for (const problem of labelValueProblems(labelValue)) {
        invalid(
          issues,
          [...vPath, key],
          `${formatPath([...vPath, key])} is ${preview(labelValue)}, which is not a valid label value: ${problem}`,
          'shorten it to 63 characters of letters, digits, "-", "_" and "." (put free text in an annotation instead)',
        );
      }
    }
  });
  arrayAt(overriders, 'annotationsOverrider').forEach((entry, i) => {
    const value = isPlainObject(entry) ? objectAt(entry, 'value') : undefined;
    if (!value) return;
    const vPath = [...path, 'annotationsOverrider', i, 'value'];
    // apimachinery's ValidateAnnotations: keys and values together at most 256 KiB.
    const bytes = Object.entries(value).reduce(
      (sum, [k, v]) => sum + Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0),
      0,
    );
    if (bytes > TOTAL_ANNOTATION_BYTES)
      invalid(
        issues,
        vPath,
        `${formatPath(vPath)} is ${bytes} bytes of annotations: may not be more than ${TOTAL_ANNOTATION_BYTES} bytes`,
        'keep large data in a ConfigMap and refer to it from a short annotation',
      );
    for (const key of Object.keys(value)) {
      for (const problem of qualifiedNameProblems(key.toLowerCase())) {
        invalid(
          issues,
          [...vPath, key],
          `annotation key ${preview(key)} in ${formatPath(vPath)} is not valid: ${problem}`,
          'use an annotation key such as example.com/owner',
        );
      }
    }
  });
  arrayAt(overriders, 'fieldOverrider').forEach((entry, i) => {
    if (!isPlainObject(entry)) return;
    const ePath = [...path, 'fieldOverrider', i];
    const json = arrayAt(entry, 'json');
    const yaml = arrayAt(entry, 'yaml');
    // What applyFieldOverriders does with these in the deprecated spec.overriders, which nothing checks.
    const deprecated = path.length === 2;
    if (json.length > 0 && yaml.length > 0) {
      invalid(
        issues,
        ePath,
        `${formatPath(ePath)} sets both json and yaml; exactly one is allowed${deprecated ? ' (here Karmada applies the yaml operations and ignores json)' : ''}`,
        `keep json if the field holds JSON text, yaml if it holds YAML text, and delete the other`,
      );
    } else if (json.length === 0 && yaml.length === 0) {
      issues.push({
        path: ePath,
        code: 'MISSING_FIELD',
        message: `${formatPath(ePath)} needs json or yaml operations${deprecated ? ' (here Karmada writes an empty string to the field)' : ''}`,
        fix: `add ${formatPath([...ePath, 'json'])} (or yaml) with at least one {subPath, operator, value}`,
      });
    }
    validatePointer(entry.fieldPath, [...ePath, 'fieldPath'], issues);
    validateNotIdentity(entry.fieldPath, [...ePath, 'fieldPath'], issues);
    for (const [format, operations] of [
      ['json', json],
      ['yaml', yaml],
    ] as const) {
      operations.forEach((operation, j) => {
        if (!isPlainObject(operation)) return;
        validatePointer(operation.subPath, [...ePath, format, j, 'subPath'], issues);
        validateOperatorValue(operation, [...ePath, format, j], issues);
      });
    }
  });
}

/** add/replace need a value; remove must not have one. */
function validateOperatorValue(entry: Obj, path: Path, issues: SchemaIssue[]): void {
  const hasValue = entry.value !== undefined && entry.value !== null;
  const vPath = [...path, 'value'];
  if ((entry.operator === 'add' || entry.operator === 'replace') && !hasValue) {
    issues.push({
      path: vPath,
      code: 'MISSING_FIELD',
      message: `${formatPath(vPath)} is required because the operator is ${entry.operator}`,
      fix: `add ${formatPath(vPath)} with the value to ${entry.operator}`,
    });
  }
  if (entry.operator === 'remove' && hasValue) {
    invalid(
      issues,
      vPath,
      `${formatPath(vPath)} is set, but the operator is remove, which takes no value`,
      `delete ${formatPath(vPath)}`,
    );
  }
}

/**
 * An override may change what an object holds, never which object it is (overrides/overrideIdentity.ts): a path at
 * or above apiVersion, kind, metadata.name or metadata.namespace is refused here, where it is written, and again at
 * render time for whatever gets past this (a rule is then not applied).
 */
/** Refusals of Flotilla's own (README), kept as errors where Karmada's webhook checks nothing. */
const IDENTITY_ISSUES = new WeakSet<SchemaIssue>();

function validateNotIdentity(pointer: unknown, path: Path, issues: SchemaIssue[]): void {
  if (typeof pointer !== 'string') return;
  const field = identityFieldAt(pointer);
  if (!field) return;
  const before = issues.length;
  invalid(
    issues,
    path,
    `${formatPath(path)} is ${preview(pointer)}, which writes ${pointer === '' || pointer === '/metadata' ? `the whole ${pointer === '' ? 'object' : 'metadata'}, ${field} included` : field}: an override cannot change which object it applies to`,
    pointer === '' || pointer === '/metadata'
      ? 'patch the fields below it instead, e.g. /metadata/labels/<key> or /spec/...'
      : `remove this overrider; to have a ${field === 'metadata.namespace' ? 'copy in another namespace' : 'different object'}, add a template for it`,
  );
  for (const issue of issues.slice(before)) IDENTITY_ISSUES.add(issue);
}

function validatePointer(pointer: unknown, path: Path, issues: SchemaIssue[]): void {
  if (typeof pointer !== 'string' || isJSONPointer(pointer)) return;
  invalid(
    issues,
    path,
    `${formatPath(path)} is ${preview(pointer)}, which is not a JSON pointer`,
    `start it with "/", e.g. /${pointer.replace(/^[./]+/, '').replace(/\./g, '/')}`,
  );
}

// ---------------------------------------------------------------- Cluster

function validateClusterName(metadata: Obj | undefined, issues: SchemaIssue[]): void {
  const name = stringAt(metadata, 'name');
  if (name === undefined || name === '') return;
  const path = ['metadata', 'name'];
  if (name.length > CLUSTER_NAME_MAX_LENGTH) {
    invalid(
      issues,
      path,
      `metadata.name is ${name.length} characters long; a cluster name is at most ${CLUSTER_NAME_MAX_LENGTH} (karmada-es-<name> must fit in 63)`,
      `shorten metadata.name to ${CLUSTER_NAME_MAX_LENGTH} characters or fewer`,
    );
  } else if (!isDNS1123Label(name)) {
    invalid(
      issues,
      path,
      `metadata.name is ${preview(name)}; a cluster name must be lowercase letters, digits and "-", starting and ending with a letter or digit`,
      `rename the cluster to ${preview(
        name
          .toLowerCase()
          .replace(/[^a-z0-9-]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'member1',
      )}`,
    );
  }
}

function validateClusterSpec(spec: Obj, issues: SchemaIssue[]): void {
  const endpoint = stringAt(spec, 'apiEndpoint');
  if (endpoint) {
    const problem = urlProblem(endpoint);
    // Never echo an endpoint that may carry a password.
    const shown = endpoint.includes('@') ? 'not valid' : preview(endpoint);
    if (problem)
      invalid(
        issues,
        ['spec', 'apiEndpoint'],
        `spec.apiEndpoint is ${shown}: ${problem}`,
        'write the API server URL as https://host:port',
      );
  }
  const proxy = stringAt(spec, 'proxyURL');
  if (proxy) {
    const refused = goUrlParseRefusal(proxy);
    let scheme = '';
    try {
      scheme = new URL(proxy).protocol.replace(/:$/, '');
    } catch {
      scheme = '';
    }
    if (refused)
      invalid(
        issues,
        ['spec', 'proxyURL'],
        `spec.proxyURL is ${proxy.includes('@') ? 'not valid' : preview(proxy)}: ${refused}`,
        'write it as http://host:port, https://host:port or socks5://host:port, with nothing around it',
      );
    else if (!['http', 'https', 'socks5'].includes(scheme)) {
      invalid(
        issues,
        ['spec', 'proxyURL'],
        `spec.proxyURL is ${proxy.includes('@') ? 'not valid' : preview(proxy)}; its scheme must be http, https or socks5`,
        'write it as http://host:port, https://host:port or socks5://host:port',
      );
    }
  }
  // The reconciler reads kubeconfigRef.path only inside its --credentials-dir; say so to the reviewer first.
  const kubeconfigPath = stringAt(objectAt(spec, 'kubeconfigRef') ?? {}, 'path');
  const pathProblem = kubeconfigPath === undefined ? undefined : relativeNameProblem(kubeconfigPath);
  if (pathProblem) {
    const why = { empty: 'is empty', absolute: 'is absolute', escapes: 'climbs out with ..' }[pathProblem];
    invalid(
      issues,
      ['spec', 'kubeconfigRef', 'path'],
      `spec.kubeconfigRef.path ${preview(kubeconfigPath!)} ${why}: the reconciler reads kubeconfigs only inside its --credentials-dir`,
      'name the kubeconfig relative to the credentials folder, without .. (e.g. path: members.config)',
    );
  }
  for (const field of ['provider', 'region'] as const) {
    const v = stringAt(spec, field);
    if (v === undefined) continue;
    for (const problem of labelValueProblems(v))
      invalid(
        issues,
        ['spec', field],
        `spec.${field} is ${preview(v)}: ${problem}`,
        `use a label-like value such as ${field === 'region' ? 'us-east-1' : 'aws'}`,
      );
  }
  const zone = stringAt(spec, 'zone');
  const zones = arrayAt(spec, 'zones');
  if (zone && zones.length > 0) {
    invalid(
      issues,
      ['spec', 'zone'],
      'spec.zone (deprecated) and spec.zones cannot both be set',
      'move spec.zone into spec.zones and delete spec.zone',
    );
  }
  if (zone)
    for (const problem of labelValueProblems(zone))
      invalid(
        issues,
        ['spec', 'zone'],
        `spec.zone is ${preview(zone)}: ${problem}`,
        'use a label-like value such as us-east-1a',
      );
  zones.forEach((z, i) => {
    if (typeof z !== 'string') return;
    for (const problem of labelValueProblems(z))
      invalid(
        issues,
        ['spec', 'zones', i],
        `spec.zones[${i}] is ${preview(z)}: ${problem}`,
        'use a label-like value such as us-east-1a',
      );
  });
  for (const field of ['secretRef', 'impersonatorSecretRef'] as const) {
    const ref = objectAt(spec, field);
    if (!ref) continue;
    for (const part of ['namespace', 'name'] as const)
      if (ref[part] === '')
        issues.push({
          path: ['spec', field, part],
          code: 'MISSING_FIELD',
          message: `spec.${field}.${part} is empty`,
          fix: `name the Secret's ${part} in spec.${field}.${part}`,
        });
  }
  validateResourceModels(arrayAt(spec, 'resourceModels'), issues);
  const seenTaints = new Map<string, number>();
  arrayAt(spec, 'taints').forEach((taint, i) => {
    if (!isPlainObject(taint)) return;
    const key = stringAt(taint, 'key');
    if (key !== undefined) {
      for (const problem of qualifiedNameProblems(key))
        invalid(
          issues,
          ['spec', 'taints', i, 'key'],
          `spec.taints[${i}].key is ${preview(key)}, which is not a valid key: ${problem}`,
          'use a key such as dedicated or example.com/maintenance',
        );
    }
    const value = stringAt(taint, 'value');
    if (value !== undefined) {
      for (const problem of labelValueProblems(value))
        invalid(
          issues,
          ['spec', 'taints', i, 'value'],
          `spec.taints[${i}].value is ${preview(value)}: ${problem}`,
          'use a label-like value',
        );
    }
    const effect = stringAt(taint, 'effect');
    if (key === undefined || effect === undefined) return;
    const id = `${key}:${effect}`;
    const first = seenTaints.get(id);
    if (first !== undefined) {
      invalid(
        issues,
        ['spec', 'taints', i],
        `spec.taints[${i}] repeats taint ${key}:${effect} from spec.taints[${first}]`,
        `delete spec.taints[${i}]`,
      );
    } else {
      seenTaints.set(id, i);
    }
  });
}

/**
 * Karmada's ValidateClusterResourceModels, run as its registry runs it: on the models standardized (sorted by grade,
 * the first grade's minimums 0, the last one's maximums unbounded). The first rule broken is reported, as Karmada
 * returns one error. Quantities are compared by value (Karmada compares the last two bounds as Go structs, so "2" and
 * "2000m" would differ there).
 */
function validateResourceModels(models: unknown[], issues: SchemaIssue[]): void {
  // Left out, a grade is 0, a name "" and a bound 0, as Go decodes the Cluster.
  const gradeOf = (m: Obj) => (m.grade ?? 0) as number;
  if (models.length === 0 || !models.every((m) => isPlainObject(m) && typeof gradeOf(m) === 'number')) return;
  const sorted = [...(models as Obj[])].sort((a, b) => gradeOf(a) - gradeOf(b));
  const bounds = (m: Obj, i: number) =>
    arrayAt(m, 'ranges').map((r) => {
      const range = isPlainObject(r) ? r : {};
      const quantity = (v: unknown) =>
        v === undefined || v === null
          ? ZERO
          : typeof v === 'string' || typeof v === 'number'
            ? parseQuantity(v)
            : undefined;
      return {
        name: range.name ?? '',
        min: i === 0 ? ZERO : quantity(range.min),
        max: i === sorted.length - 1 ? UNBOUNDED : quantity(range.max),
      };
    });
  const refuse = (rule: string) =>
    invalid(
      issues,
      ['spec', 'resourceModels'],
      `spec.resourceModels: ${rule}`,
      'give each grade once, every grade the same resources in the same order, each range above its minimum and starting where the grade below ends',
    );
  let previous: ReturnType<typeof bounds> | undefined;
  for (let i = 0; i < sorted.length; i++) {
    const model = sorted[i]!;
    const ranges = bounds(model, i);
    if (i > 0 && gradeOf(model) === gradeOf(sorted[i - 1]!))
      return refuse('The grade of each models should not be the same');
    if (previous && previous.length !== ranges.length) return refuse('The number of resource types should be the same');
    for (let j = 0; j < ranges.length; j++) {
      const { name, min, max } = ranges[j]!;
      if (!min || !max) return; // not quantities: the schema reports them
      if (compareQuantities(max, min) <= 0)
        return refuse('The max value of each resource must be greater than the min value');
      const below = previous?.[j];
      if (!below) continue;
      if (below.name !== name) return refuse('The resource types of each models should be the same');
      if (!below.max || compareQuantities(below.max, min) !== 0)
        return refuse('Model intervals for resources must be contiguous and non-overlapping');
    }
    previous = ranges;
  }
}

const ZERO: Quantity = { num: 0n, den: 1n };
const UNBOUNDED: Quantity = { num: 9223372036854775807n, den: 1n };

// ---------------------------------------------------------------- ClusterTaintPolicy

/**
 * Karmada's webhook (validatePolicyTaints): two taints of one key and effect. Its other rule, no NoExecute taint unless
 * an administrator's flag allows it, Flotilla does not keep: there a NoExecute taint policy is the opt-in to failover.
 *
 * Karmada's CRD and webhook admit any key, value and effect, but its controller puts the taints on the Cluster, whose
 * validation (ValidateClusterTaints) refuses a key that is not a qualified name, a value that is not a label value and
 * an effect other than NoSchedule or NoExecute: every patch of a Cluster the policy matches then fails, so the policy
 * never taints it (and holds that Cluster's other taint changes back). Such a taint is refused here, where the fix is.
 */
function validateClusterTaintPolicySpec(spec: Obj, issues: SchemaIssue[]): void {
  for (const list of ['addOnConditions', 'removeOnConditions'])
    arrayAt(spec, list).forEach((condition, i) => {
      const operator = isPlainObject(condition) ? condition.operator : undefined;
      if (typeof operator !== 'string' || operator === 'In' || operator === 'NotIn') return;
      const path = ['spec', list, i, 'operator'];
      // Admitted (the CRD has no enum, the webhook checks taints only), but conditionMatches then matches nothing.
      issues.push({
        path,
        code: 'INVALID_VALUE',
        message: `${formatPath(path)} is ${preview(operator)}: Karmada admits it but its controller matches nothing with an operator other than In or NotIn, so spec.taints are never ${list === 'addOnConditions' ? 'added' : 'removed'} by this policy`,
        fix: 'use In or NotIn',
        warning: true,
      });
    });
  const taints = arrayAt(spec, 'taints');
  taints.forEach((taint, i) => {
    if (!isPlainObject(taint)) return;
    const refused = `Karmada admits this policy, but a Cluster cannot hold such a taint, so its controller's patch of every Cluster the policy matches is refused and the policy never taints one`;
    const key = stringAt(taint, 'key');
    if (key !== undefined)
      for (const problem of qualifiedNameProblems(key))
        invalid(
          issues,
          ['spec', 'taints', i, 'key'],
          `spec.taints[${i}].key is ${preview(key)}, not a valid taint key (${problem}): ${refused}`,
          'use a key such as dedicated or example.com/maintenance',
        );
    const value = stringAt(taint, 'value');
    if (value !== undefined)
      for (const problem of labelValueProblems(value))
        invalid(
          issues,
          ['spec', 'taints', i, 'value'],
          `spec.taints[${i}].value is ${preview(value)}, not a valid taint value (${problem}): ${refused}`,
          'use a label-like value, or leave value out',
        );
    const effect = stringAt(taint, 'effect');
    if (effect !== undefined && effect !== 'NoSchedule' && effect !== 'NoExecute')
      invalid(
        issues,
        ['spec', 'taints', i, 'effect'],
        `spec.taints[${i}].effect is ${preview(effect)}; a Cluster takes NoSchedule and NoExecute taints only: ${refused}`,
        'use NoSchedule (keeps new placements off) or NoExecute (also evicts what runs there)',
      );
    const j = taints.findIndex(
      (other, k) => k > i && isPlainObject(other) && other.key === taint.key && other.effect === taint.effect,
    );
    if (j < 0) return;
    invalid(
      issues,
      ['spec', 'taints', i],
      `spec.taints[${i}] and spec.taints[${j}] are both taint ${preview(taint.key)} with effect ${preview(taint.effect)}; a key and effect may be given once`,
      `delete one of them, or give them different keys or effects`,
    );
  });
}

/** Karmada's apiEndpoint rules: a URL with a host, no user info, query or fragment. */
function urlProblem(endpoint: string): string | undefined {
  const refused = goUrlParseRefusal(endpoint);
  if (refused) return refused;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'it is not a URL with a scheme and host';
  }
  if (url.host === '') return 'the host is missing';
  if (url.username || url.password || hasEmptyUserInfo(endpoint)) return 'user information is not allowed in the URL';
  if (url.hash) return 'a fragment (#...) is not allowed';
  if (url.search) return 'query parameters are not allowed';
  return undefined;
}

/**
 * What Go's url.Parse refuses and the WHATWG parser quietly repairs: a control character anywhere (the WHATWG parser
 * drops tabs and newlines), and a space before the URL or in its host and port (it trims the ends), as a value
 * pasted with a stray space or newline has them.
 */
function goUrlParseRefusal(text: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the bytes net/url refuses.
  if (/[\x00-\x1f\x7f]/.test(text)) return 'it contains a control character (a tab or a line break)';
  if (text.startsWith(' ')) return 'it starts with a space';
  const start = text.indexOf('://');
  if (start >= 0 && /^[^/?#]* /.test(text.slice(start + 3))) return 'its host or port contains a space';
  return undefined;
}

/**
 * `https://@host`: Go's url.Parse sets a (blank) User for any `@` in the authority, and ValidateClusterAPIEndpoint
 * refuses a non-nil User; the WHATWG parser leaves no trace of an empty one.
 */
function hasEmptyUserInfo(endpoint: string): boolean {
  // url.Parse cuts the fragment at the first '#' and the query at the first '?', then the authority at the first '/'.
  const beforeQuery = endpoint.split('#')[0]!.split('?')[0]!;
  const start = beforeQuery.indexOf('://');
  if (start < 0) return false;
  return beforeQuery
    .slice(start + 3)
    .split('/')[0]!
    .includes('@');
}

// ---------------------------------------------------------------- shape helpers

function objectAt(value: Obj | undefined, key: string): Obj | undefined {
  const v = value?.[key];
  return isPlainObject(v) ? v : undefined;
}

function arrayAt(value: Obj | undefined, key: string): unknown[] {
  const v = value?.[key];
  return Array.isArray(v) ? v : [];
}

function stringAt(value: Obj | undefined, key: string): string | undefined {
  const v = value?.[key];
  return typeof v === 'string' ? v : undefined;
}

function integerAt(value: Obj | undefined, key: string): number | undefined {
  const v = value?.[key];
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}
