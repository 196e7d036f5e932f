import { qualifiedNameDetails } from '../labels/objectMetaRules.ts';
import {
  type Json,
  type KubeViolation,
  duplicate,
  entries,
  invalid,
  list,
  notSupported,
  qualifiedNameViolations,
  required,
  tooLong,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a storage.k8s.io/v1 StorageClass being created
// (pkg/apis/storage/validation ValidateStorageClass: provisioner, parameters, reclaimPolicy, volumeBindingMode,
// allowedTopologies with ValidateTopologySelectorTerm), in its field paths and words. reclaimPolicy and
// volumeBindingMode read as their defaults when unset, Delete and Immediate (SetDefaults_StorageClass).

export const STORAGE_GROUP = 'storage.k8s.io';

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_BYTES = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

export function storageClassViolations(storageClass: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const provisioner = typeof storageClass?.provisioner === 'string' ? storageClass.provisioner : '';
  if (provisioner === '') errors.push(required(['provisioner']));
  // Checked lowercased, printed as written.
  else
    for (const p of qualifiedNameDetails(provisioner.toLowerCase()))
      errors.push(invalid(['provisioner'], provisioner, p));
  const parameters = entries(storageClass?.parameters);
  if (parameters.length > MAX_PARAMETERS) errors.push(tooLong(['parameters'], MAX_PARAMETERS));
  else {
    let bytes = 0;
    for (const [key, value] of parameters) {
      if (key === '') errors.push(invalid(['parameters'], key, 'field can not be empty.'));
      bytes += Buffer.byteLength(key) + Buffer.byteLength(String(value ?? ''));
    }
    if (bytes > MAX_PARAMETERS_BYTES) errors.push(tooLong(['parameters'], MAX_PARAMETERS_BYTES));
  }
  const reclaimPolicy = storageClass?.reclaimPolicy;
  if (typeof reclaimPolicy === 'string' && reclaimPolicy !== '' && !RECLAIM_POLICIES.includes(reclaimPolicy))
    errors.push(notSupported(['reclaimPolicy'], reclaimPolicy, RECLAIM_POLICIES));
  const mode = storageClass?.volumeBindingMode;
  if (typeof mode === 'string' && !BINDING_MODES.includes(mode))
    errors.push(notSupported(['volumeBindingMode'], mode, BINDING_MODES));
  errors.push(...allowedTopologiesViolations(list(storageClass?.allowedTopologies)));
  return errors;
}

/** validateAllowedTopologies: each term's expressions, and no term repeating an earlier one. */
function allowedTopologiesViolations(terms: Json[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const seen: Map<string, Set<string>>[] = [];
  terms.forEach((term, i) => {
    const at = ['allowedTopologies', i];
    const byKey = new Map<string, Set<string>>();
    list(term?.matchLabelExpressions).forEach((req, j) => {
      const where = [...at, 'matchLabelExpressions', j];
      const values = list(req?.values).map(String);
      if (values.length === 0) errors.push(required([...where, 'values']));
      const set = new Set<string>();
      values.forEach((value, k) => {
        if (set.has(value)) errors.push(duplicate([...where, 'values', k], value));
        set.add(value);
      });
      const key = typeof req?.key === 'string' ? req.key : '';
      errors.push(...qualifiedNameViolations([...where, 'key'], key));
      if (byKey.has(key)) errors.push(duplicate([...where, 'key'], key));
      byKey.set(key, set);
    });
    if (seen.some((other) => sameTerm(other, byKey))) errors.push(duplicate([...at, 'matchLabelExpressions'], ''));
    seen.push(byKey);
  });
  return errors;
}

function sameTerm(a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, values] of a) {
    const other = b.get(key);
    if (!other || other.size !== values.size || [...values].some((v) => !other.has(v))) return false;
  }
  return true;
}
