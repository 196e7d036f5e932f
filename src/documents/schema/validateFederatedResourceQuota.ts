// policy.karmada.io/v1alpha1 FederatedResourceQuota: its CRD (charts/karmada/_crds/bases/policy/
// policy.karmada.io_federatedresourcequotas.yaml: spec.overall required, each static assignment's clusterName and
// hard, quantities an integer or a string of the quantity pattern) and Karmada's validating webhook
// (pkg/webhook/federatedresourcequota/validating.go, with the quota rules it lifts from Kubernetes). Karmada refuses
// such an object when it is applied; here each is a located problem and the object keeps its last valid version.
import { qualifiedNameProblems } from '../../labels/labelFormats.ts';
import {
  addQuantity,
  formatQuantity,
  nanoValue,
  parseQuantity,
  type Quantity,
} from '../../quantities/canonicalQuantity.ts';
import {
  isIntegerResourceName,
  isStandardQuotaResourceName,
  isStandardResourceName,
} from '../../kubeValidation/resourceNames.ts';
import { isDNS1123Label } from './kubernetesNames.ts';
import { isPlainObject, preview, type SchemaIssue } from './validateAgainstSchema.ts';

type Path = (string | number)[];
type Obj = Record<string, unknown>;

/** The CRD's pattern for a quantity written as a string (x-kubernetes-int-or-string). */
const CRD_QUANTITY =
  /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;
/** validateFederatedResourceQuotaName: the name is a label value on the Works it makes. */
const NAME_MAX_LENGTH = 63;
/** ValidateClusterName: karmada-es-<name> must fit in 63. */
const CLUSTER_NAME_MAX_LENGTH = 48;

/** What Karmada's webhook and CRD refuse in a FederatedResourceQuota; the order is the webhook's, the CRD's first. */
export function validateFederatedResourceQuota(value: Obj): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const name = (value.metadata as Obj | undefined)?.name;
  if (typeof name === 'string' && name.length > NAME_MAX_LENGTH)
    issues.push({
      path: ['metadata', 'name'],
      code: 'INVALID_VALUE',
      message: `metadata.name is ${name.length} characters long: must be no more than ${NAME_MAX_LENGTH} characters (Karmada labels the quota's Works with it)`,
      fix: `shorten the name to ${NAME_MAX_LENGTH} characters or fewer`,
    });
  const spec = value.spec;
  if (!isPlainObject(spec)) {
    issues.push({
      path: spec === undefined || spec === null ? [] : ['spec'],
      code: spec === undefined || spec === null ? 'MISSING_FIELD' : 'INVALID_VALUE',
      message: 'a FederatedResourceQuota needs spec.overall: spec is required (its CRD)',
      fix: 'add spec: {overall: {cpu: "10", memory: 20Gi}} with the namespace-wide limits',
    });
    return issues;
  }
  let overall: Map<string, Quantity> | undefined;
  if (spec.overall === undefined || spec.overall === null)
    issues.push({
      path: ['spec'],
      code: 'MISSING_FIELD',
      message: 'spec.overall is required (its CRD): the hard limits of the namespace across all clusters',
      fix: 'add overall: {cpu: "10", memory: 20Gi} to spec',
    });
  else overall = resourceList(spec.overall, ['spec', 'overall'], issues);

  const assignments: { hard: Map<string, Quantity> | undefined; path: Path }[] = [];
  if (spec.staticAssignments !== undefined && spec.staticAssignments !== null) {
    if (!Array.isArray(spec.staticAssignments))
      issues.push({
        path: ['spec', 'staticAssignments'],
        code: 'INVALID_VALUE',
        message: `spec.staticAssignments is ${preview(spec.staticAssignments)}: must be a list`,
        fix: 'write staticAssignments as a list of {clusterName, hard}',
      });
    else
      spec.staticAssignments.forEach((item, i) => {
        const path: Path = ['spec', 'staticAssignments', i];
        if (!isPlainObject(item)) {
          issues.push({
            path,
            code: 'INVALID_VALUE',
            message: `spec.staticAssignments[${i}] is ${preview(item)}: must be an object`,
            fix: 'write each assignment as {clusterName: member1, hard: {cpu: "1"}}',
          });
          return;
        }
        clusterName(item.clusterName, [...path, 'clusterName'], issues);
        if (item.hard === undefined || item.hard === null) {
          issues.push({
            path,
            code: 'MISSING_FIELD',
            message: `spec.staticAssignments[${i}].hard is required (its CRD): the limits of the cluster's ResourceQuota`,
            fix: 'add hard: {cpu: "1"} to the assignment',
          });
          assignments.push({ hard: undefined, path });
        } else assignments.push({ hard: resourceList(item.hard, [...path, 'hard'], issues), path });
      });
  }
  if (overall) overallCoversAssignments(overall, assignments, issues);
  return issues;
}

/** validateOverallAndAssignments: overall at least the sum of the assignments, each assigned name in overall. */
function overallCoversAssignments(
  overall: Map<string, Quantity>,
  assignments: { hard: Map<string, Quantity> | undefined; path: Path }[],
  issues: SchemaIssue[],
): void {
  for (const [name, limit] of overall) {
    let sum: Quantity = { mantissa: 0n, scale: 0, format: 'DecimalSI' };
    for (const a of assignments) {
      const q = a.hard?.get(name);
      if (q) sum = addQuantity(sum, q);
    }
    if (nanoValue(limit) < nanoValue(sum))
      issues.push({
        path: ['spec', 'overall', name],
        code: 'INVALID_VALUE',
        message: `spec.overall.${name} is ${formatQuantity(limit)}: overall is less than assignments (the static assignments give ${formatQuantity(sum)})`,
        fix: `raise overall ${name} to at least ${formatQuantity(sum)}, or lower the assignments' ${name}`,
      });
  }
  for (const a of assignments)
    for (const name of a.hard?.keys() ?? [])
      if (!overall.has(name))
        issues.push({
          path: [...a.path, 'hard', name],
          code: 'INVALID_VALUE',
          message: `${name}: assignment resourceName is not exist in overall (spec.overall has no ${name})`,
          fix: `add ${name} to spec.overall, at least the sum of the assignments' ${name}, or remove it here`,
        });
}

/** The CRD's map of quantities, then validateResourceList: quota resource names and quantities. */
function resourceList(value: unknown, path: Path, issues: SchemaIssue[]): Map<string, Quantity> | undefined {
  const at = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  if (!isPlainObject(value)) {
    issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${at} is ${preview(value)}: must be a map of resource names to quantities`,
      fix: `write ${at} as {cpu: "1", memory: 2Gi}`,
    });
    return undefined;
  }
  const out = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(value)) {
    const where = [...path, name];
    const q = crdQuantity(raw);
    if (!q) {
      issues.push({
        path: where,
        code: 'INVALID_VALUE',
        message:
          typeof raw === 'string'
            ? `${at}.${name} is ${preview(raw)}, which does not match the quantity pattern of its CRD`
            : `${at}.${name} is ${preview(raw)}: must be of type integer or string (its CRD)`,
        fix: 'write a whole number or a quoted quantity such as "500m", "1.5", "16Gi"',
      });
      continue;
    }
    const nameProblems = quotaResourceNameProblems(name);
    for (const detail of nameProblems)
      issues.push({
        path: where,
        code: 'INVALID_VALUE',
        message: `${at}.${name}: ${preview(name)} ${detail}`,
        fix: 'use a quota resource such as cpu, memory, requests.cpu, limits.memory, pods, count/deployments.apps or requests.example.com/gpu',
      });
    if (q.mantissa < 0n)
      issues.push({
        path: where,
        code: 'INVALID_VALUE',
        message: `${at}.${name} is ${formatQuantity(q)}: must be greater than or equal to 0`,
        fix: 'write a quantity of 0 or more',
      });
    if (isIntegerResourceName(name) && nanoValue(q) % 1_000_000_000n !== 0n)
      issues.push({
        path: where,
        code: 'INVALID_VALUE',
        message: `${at}.${name} is ${formatQuantity(q)}: must be an integer (${name} is counted in whole units)`,
        fix: `write a whole number of ${name}`,
      });
    out.set(name, q);
  }
  return out;
}

/** ValidateResourceQuotaResourceName: a qualified name; unprefixed, a standard one that quota tracks. */
function quotaResourceNameProblems(name: string): string[] {
  const qualified = qualifiedNameProblems(name);
  if (qualified.length > 0) return qualified;
  if (name.includes('/')) return [];
  if (!isStandardResourceName(name)) return ['must be a standard resource type or fully qualified'];
  if (!isStandardQuotaResourceName(name)) return ['must be a standard resource for quota'];
  return [];
}

/** An integer, or a string of the CRD's pattern, as resource.Quantity reads it. */
function crdQuantity(value: unknown): Quantity | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? parseQuantity(String(value)) : undefined;
  if (typeof value !== 'string' || !CRD_QUANTITY.test(value)) return undefined;
  return parseQuantity(value.startsWith('+') ? value.slice(1) : value);
}

/** ValidateClusterName, after the CRD's own: required, a string. */
function clusterName(value: unknown, path: Path, issues: SchemaIssue[]): void {
  const at = `spec.staticAssignments[${path[2]}].clusterName`;
  if (value === undefined || value === null) {
    issues.push({
      path: path.slice(0, -1),
      code: 'MISSING_FIELD',
      message: `${at} is required (its CRD): the cluster whose ResourceQuota this is`,
      fix: 'add clusterName: <a registered cluster> to the assignment',
    });
    return;
  }
  const detail =
    typeof value !== 'string'
      ? 'must be a string'
      : value === ''
        ? 'must be not empty'
        : value.length > CLUSTER_NAME_MAX_LENGTH
          ? `must be no more than ${CLUSTER_NAME_MAX_LENGTH} characters`
          : !isDNS1123Label(value)
            ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
            : undefined;
  if (detail)
    issues.push({
      path,
      code: 'INVALID_VALUE',
      message: `${at} is ${preview(value)}: ${detail}`,
      fix: "name a cluster as its Cluster's metadata.name is written",
    });
}
