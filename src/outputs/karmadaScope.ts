import { refKey } from '../api/kinds.ts';
import { karmadaRef } from '../documents/karmadaRef.ts';
import type { FileObjects } from '../api/model.ts';

/**
 * Which templates a file of Karmada objects can concern, so an incremental sync reads only the files that matter to
 * the templates it renders. `fleet`: any template, or the commit as a whole; read on every sync. Otherwise only
 * templates in the namespaces of its PropagationPolicies and OverridePolicies, which select nothing outside their
 * own namespace (matchPolicy, overridesFor). `policies` are their refKeys, in either case: a duplicate is seen
 * without reading the files.
 */
export interface KarmadaScope {
  fleet?: true;
  policies: string[];
}

/**
 * Fleet-wide: Clusters, the Cluster* policies, rebalancers and interpreter customizations (they reach across
 * namespaces); PropagationPolicies with clusterTolerations (the next failover check reads every policy's
 * tolerationSeconds); a file with problems, broken objects or that did not parse (every output commit lists its
 * problems and holds what it rendered); and a file that also holds templates (their scope and duplicates are
 * resolved repo-wide).
 */
export function scopeOf(f: FileObjects): KarmadaScope {
  let fleet =
    f.unreadable ||
    f.problems.length +
      f.broken.length +
      f.templates.length +
      f.clusters.length +
      f.clusterTaintPolicies.length +
      f.rebalancers.length +
      f.interpreterCustomizations.length >
      0;
  const policies: string[] = [];
  for (const { object } of [...f.propagationPolicies, ...f.overridePolicies]) {
    if (object.kind === 'PropagationPolicy' || object.kind === 'OverridePolicy')
      policies.push(refKey(karmadaRef(object)));
    else fleet = true;
    if (object.kind === 'PropagationPolicy' && (object.spec.placement?.clusterTolerations ?? []).length > 0)
      fleet = true;
  }
  return fleet ? { fleet, policies } : { policies };
}

/**
 * Paths of the files a render of templates in `namespaces` needs: every fleet-wide one, those with a policy of one
 * of the namespaces, and every file holding a policy defined more than once (in it or elsewhere), so the duplicate
 * is reported and held as when every file is read.
 */
export function filesFor(files: ReadonlyMap<string, KarmadaScope>, namespaces: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const scope of files.values()) {
    for (const key of scope.policies) {
      if (seen.has(key)) duplicated.add(key);
      else seen.add(key);
    }
  }
  const out = new Set<string>();
  for (const [path, scope] of files) {
    if (scope.fleet || scope.policies.some((key) => duplicated.has(key) || namespaces.has(policyNamespace(key))))
      out.add(path);
  }
  return out;
}

/** The namespace of a policy's refKey (`<apiVersion>/<kind>/<namespace>/<name>`; names and namespaces hold no '/'), without splitting it. */
export function policyNamespace(key: string): string {
  const end = key.lastIndexOf('/');
  return key.slice(key.lastIndexOf('/', end - 1) + 1, end);
}
