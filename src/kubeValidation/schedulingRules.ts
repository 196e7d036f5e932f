import { type Json, type KubeViolation, forbidden, notSupported, required } from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a scheduling.k8s.io/v1 PriorityClass being created
// (pkg/apis/scheduling/validation ValidatePriorityClass, with IsKnownSystemPriorityClass and
// ValidatePreemptionPolicy), in its field paths and words; an unset preemptionPolicy reads as its default,
// PreemptLowerPriority (SetDefaults_PriorityClass).

export const SCHEDULING_GROUP = 'scheduling.k8s.io';

/** HighestUserDefinablePriority: above it, only the system classes. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_PREFIX = 'system-';
/** The classes the API server creates itself; a system- name must be one of them, value and globalDefault alike. */
const SYSTEM_CLASSES: ReadonlyMap<string, number> = new Map([
  ['system-node-critical', 2_000_001_000],
  ['system-cluster-critical', 2_000_000_000],
]);
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

export function priorityClassViolations(priorityClass: Json): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const name = String(priorityClass?.metadata?.name ?? '');
  const value = typeof priorityClass?.value === 'number' ? priorityClass.value : 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const problem = systemClassProblem(name, value, priorityClass?.globalDefault === true);
    if (problem)
      errors.push(
        forbidden(
          ['metadata', 'name'],
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${problem}`,
        ),
      );
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY)
    errors.push(
      forbidden(['value'], `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`),
    );
  const policy = priorityClass?.preemptionPolicy;
  if (policy === '') errors.push(required(['preemptionPolicy']));
  else if (typeof policy === 'string' && !PREEMPTION_POLICIES.includes(policy))
    errors.push(notSupported(['preemptionPolicy'], policy, PREEMPTION_POLICIES));
  return errors;
}

/** IsKnownSystemPriorityClass's error, or undefined for a known class as the API server creates it. */
function systemClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_CLASSES.get(name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known) return `value of ${name} PriorityClass must be ${known}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}
