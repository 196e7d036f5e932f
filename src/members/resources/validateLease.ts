import type { FieldError } from '../ApiError.ts';
import { qualifiedNameDetails } from '../../labels/objectMetaRules.ts';
import { forbidden, invalidValue, notSupported } from './fieldErrors.ts';

// kube-apiserver's ValidateLeaseSpec (pkg/apis/coordination/validation): durations and transitions a leader
// election could not use, and the coordinated leader election fields (strategy, preferredHolder).

type Json = any;

/** The strategies Kubernetes defines; others must be a domain-prefixed name. */
const LEASE_STRATEGIES = ['OldestEmulationVersion'] as const;

/** The errors of a coordination.k8s.io Lease's spec. */
export function leaseSpecErrors(spec: Json): FieldError[] {
  if (spec === null || typeof spec !== 'object') return [];
  const errors: FieldError[] = [];
  const isSet = (v: unknown) => v !== undefined && v !== null;
  if (isSet(spec.leaseDurationSeconds) && spec.leaseDurationSeconds <= 0)
    errors.push(invalidValue('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  if (isSet(spec.leaseTransitions) && spec.leaseTransitions < 0)
    errors.push(invalidValue('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  if (isSet(spec.strategy)) errors.push(...strategyErrors(String(spec.strategy)));
  if (isSet(spec.preferredHolder) && spec.preferredHolder !== '' && !spec.strategy)
    errors.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return errors;
}

/**
 * ValidateCoordinatedLeaseStrategy. kube-apiserver names the field `spec.strategy.strategy`: ValidateLeaseSpec
 * passes it `spec.strategy` and it appends `strategy` again; the message says what a client reads.
 */
function strategyErrors(strategy: string): FieldError[] {
  const field = 'spec.strategy.strategy';
  if (!strategy.includes('/'))
    return (LEASE_STRATEGIES as readonly string[]).includes(strategy)
      ? []
      : [notSupported(field, strategy, LEASE_STRATEGIES)];
  return qualifiedNameDetails(strategy).map((detail) => invalidValue(field, strategy, detail));
}
