import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';
import { forbidden } from './fieldErrors.ts';
import { jobUpdateViolations } from '../../kubeValidation/batchRules.ts';
import { podUpdateViolations } from '../../kubeValidation/podUpdateRules.ts';
import { labelSelectorText } from '../../kubeValidation/fieldViolations.ts';

// What an update may not change, as kube-apiserver's ValidateXUpdate functions refuse it (pkg/apis/apps/validation,
// pkg/apis/batch/validation, pkg/apis/core/validation): a chart upgrade that changes a Deployment's selector or a
// StatefulSet's volumeClaimTemplates fails on a real member, and so it does here. Both sides are defaulted already.

const SELECTOR_KINDS = new Set(['apps/Deployment', 'apps/ReplicaSet', 'apps/DaemonSet']);
/** The spec fields a StatefulSet update may change; any other is forbidden. */
const STATEFULSET_MUTABLE = new Set([
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
]);

/** The update's refusals; empty when it changes nothing immutable. */
export function validateImmutableFields(
  group: string,
  kind: string,
  next: KubeObject,
  previous: KubeObject | undefined,
): FieldError[] {
  if (!previous) return [];
  const key = `${group}/${kind}`;
  const spec = (next.spec ?? {}) as Record<string, unknown>;
  const before = (previous.spec ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (key === 'batch/Job')
    errors.push(...jobUpdateViolations(next, previous).map((v) => ({ type: v.type, field: v.field, body: v.detail })));
  if (key === '/Pod')
    errors.push(...podUpdateViolations(next, previous).map((v) => ({ type: v.type, field: v.field, body: v.detail })));
  if (SELECTOR_KINDS.has(key)) {
    if (!isDeepStrictEqual(spec.selector, before.selector))
      errors.push(immutable('spec.selector', labelSelectorText(spec.selector)));
  }
  if (key === 'apps/StatefulSet') {
    const names = new Set([...Object.keys(spec), ...Object.keys(before)]);
    if ([...names].some((n) => !STATEFULSET_MUTABLE.has(n) && !isDeepStrictEqual(spec[n], before[n])))
      errors.push(
        forbidden(
          'spec',
          `updates to statefulset spec for fields other than ${[...STATEFULSET_MUTABLE]
            .map((f) => `'${f}'`)
            .join(', ')
            .replace(/, ('minReadySeconds')$/, ' and $1')} are forbidden`,
        ),
      );
  }
  if (key === '/Service') {
    const ip = spec.clusterIP;
    if (before.clusterIP && ip !== undefined && ip !== before.clusterIP && spec.type !== 'ExternalName')
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.clusterIPs[0]',
        body: `Invalid value: []string{${JSON.stringify(ip)}}: may not change once set`,
      });
  }
  if (key === '/PersistentVolumeClaim' && previous.status?.phase === 'Bound') {
    const strip = (s: Record<string, unknown>) => {
      const { resources: _r, volumeAttributesClassName: _v, ...rest } = s;
      return rest;
    };
    if (!isDeepStrictEqual(strip(spec), strip(before)))
      errors.push(
        forbidden(
          'spec',
          'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
        ),
      );
  }
  return errors;
}

function immutable(field: string, shown: unknown): FieldError {
  return {
    type: 'FieldValueInvalid',
    field,
    body: `Invalid value: ${typeof shown === 'string' ? shown : JSON.stringify(shown)}: field is immutable`,
  };
}
