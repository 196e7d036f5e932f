import type { ConfigModel, Located } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { suggestName } from '../text/suggestName.ts';
import { describePolicy } from './matchPolicy.ts';

/**
 * Cluster names a policy writes that no Cluster of the commit registers: Karmada takes them (a cluster may join later)
 * and places nothing there, so a misspelt `membr2` quietly moves replicas elsewhere. A warning at the name, with the
 * registered name it most resembles. Needs the whole commit's Clusters.
 */
export function findUnknownClusterNames(model: ConfigModel): Problem[] {
  const registered = [...model.clusters.keys()];
  if (registered.length === 0) return [];
  const known = new Set(registered);
  const problems: Problem[] = [];
  const check = (located: Located<{ kind: string; metadata: { name?: string; namespace?: string } }>) => {
    for (const [at, where] of Object.entries(located.fieldSources ?? {})) {
      const name = nameAt(located.object, at);
      if (name === undefined || known.has(name)) continue;
      const guess = suggestName(name, registered);
      problems.push({
        ...where,
        code: 'UNKNOWN_CLUSTER',
        severity: 'warning',
        message: `${describePolicy(located.object as never)} names cluster ${name} in ${at}, which no Cluster registers: nothing goes there${guess ? `; did you mean ${guess}?` : ''}`,
        fix: guess
          ? `rename it to ${guess}, or register ${name} under clusters/`
          : `register ${name} under clusters/, or name one of ${registered.join(', ')}`,
      });
    }
  };
  for (const p of model.propagationPolicies) check(p);
  for (const p of model.overridePolicies) check(p);
  return problems;
}

/** The string at a formatted path (`spec.placement.clusterAffinity.clusterNames[1]`) of the object. */
function nameAt(object: unknown, at: string): string | undefined {
  let node: unknown = object;
  for (const part of at.match(/[^.[\]]+/g) ?? []) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}
