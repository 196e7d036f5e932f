import { refKey } from '../api/kinds.ts';
import type { Template } from '../api/model.ts';
import type { PropagationPolicy } from '../api/policy.ts';

/** What a ResourceBinding records of its policy's schedulePriority (work/v1alpha2 SchedulePriority). */
export interface BindingSchedulePriority {
  /** The PriorityClass's value; left out when 0, as Go's omitempty does. */
  priority?: number;
}

/**
 * The refKey of the PriorityClass a policy's schedulePriority names (source KubePriorityClass, the only one Karmada
 * supports), or undefined when it names none. Karmada's detector reads the class from its own API server; Flotilla
 * from the commit, where it is a template like any other.
 */
export function priorityClassKey(policy: PropagationPolicy): string | undefined {
  const priority = policy.spec.schedulePriority as {
    priorityClassSource?: unknown;
    priorityClassName?: unknown;
  } | null;
  if (!priority || priority.priorityClassSource !== 'KubePriorityClass') return undefined;
  const name = priority.priorityClassName;
  if (typeof name !== 'string' || name === '') return undefined;
  return refKey({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', namespace: '', name });
}

/**
 * detector.BuildResourceBinding under PriorityBasedScheduling (beta, on): a ResourceBinding whose policy names a
 * PriorityClass gets that class's value; without the class there is no binding to build (Karmada's detector fails and
 * retries the template, whose binding stays as it was). ClusterResourceBindings get none.
 */
export function schedulePriorityOf(
  policy: PropagationPolicy,
  templates: ReadonlyMap<string, Template>,
):
  | { status: 'none' }
  | { status: 'found'; schedulePriority: BindingSchedulePriority }
  | { status: 'missing'; priorityClass: string } {
  const key = priorityClassKey(policy);
  if (key === undefined) {
    // Karmada stores a priorityClassName left out as "" (the field has no omitempty) and its detector looks that up
    // like any other name: it finds no class, so no binding is built.
    const priority = policy.spec.schedulePriority as { priorityClassSource?: unknown } | null | undefined;
    return priority?.priorityClassSource === 'KubePriorityClass'
      ? { status: 'missing', priorityClass: '' }
      : { status: 'none' };
  }
  const found = templates.get(key);
  const name = (policy.spec.schedulePriority as { priorityClassName: string }).priorityClassName;
  if (!found) return { status: 'missing', priorityClass: name };
  const value = found.manifest.value;
  return {
    status: 'found',
    schedulePriority: typeof value === 'number' && value !== 0 ? { priority: value } : {},
  };
}
