// What the documents stage produces: every object of a commit, typed, with the place it came from.
import type { Cluster } from './cluster.ts';
import type { ObjectRef } from './kinds.ts';
import type { ClusterAffinity, ClusterTaintPolicy, OverridePolicy, PropagationPolicy } from './policy.ts';
import type { WorkloadRebalancer } from './rebalancer.ts';
import type { AnyInterpreterCustomization } from './interpreterCustomization.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';

export interface Located<T> {
  object: T;
  source: SourceSpan;
  /** Where some fields are written, by path (`spec.placement.clusterAffinity.clusterNames[1]`). */
  fieldSources?: Record<string, SourceSpan>;
}

/** A resource template: any object that is not one of Karmada's own kinds. */
export interface Template {
  /** Namespace resolved: '' for cluster-scoped kinds, 'default' when a namespaced object names none. */
  ref: ObjectRef;
  labels: Record<string, string>;
  manifest: Record<string, unknown>;
  source: SourceSpan;
  /** Set when a FederatedHPA's decision on the status branch gave spec.replicas: which one, how many, Git's count. */
  autoscaledBy?: string;
  /** Where some fields are written, by path (`spec.providerClusters[0].name`): for problems found after parsing. */
  fieldSources?: Record<string, SourceSpan>;
  /** For an object a unit output: the file its tool named (Helm's `# Source:`), `source` being the unit's marker file. */
  origin?: SourceSpan;
  /** For an object of a packed subchart (`origin` at its archive): the template in the archive, as helm names it there. */
  originInArchive?: string;
  /** With originInArchive: the object's line in that template. */
  originArchiveLine?: number;
  /**
   * Set when Helm or Kustomize units with a clusterAffinity in their flotilla-unit.yaml (scoped units) output it: one
   * variant per unit, in the order of their marker files, their scopes selecting disjoint sets of the registered
   * clusters. It goes only to clusters a scope selects, and each of them gets the variant of that scope's unit. The
   * template's own labels, manifest and source are the first variant's: what policies match and the scheduler reads.
   */
  variants?: TemplateVariant[];
}

/** What one scoped unit outputs for a template's identity (documents/templateVariants.ts picks a cluster's). */
export interface TemplateVariant {
  /** The unit's marker file: its key in ConfigModel.units. */
  unit: string;
  /** The unit's clusterAffinity: the clusters that get this variant. */
  scope: ClusterAffinity;
  labels: Record<string, string>;
  manifest: Record<string, unknown>;
  source: SourceSpan;
  fieldSources?: Record<string, SourceSpan>;
  origin?: SourceSpan;
  originInArchive?: string;
  originArchiveLine?: number;
}

/** A folder rendered by Helm or Kustomize (units/): what plan, explain, history and blame name as the source. */
export interface UnitOrigin {
  /** The unit's folder. */
  dir: string;
  tool: 'helm' | 'kustomize';
  /** Chart.yaml or the kustomization: the unit's name in the output index, and its templates' `source.file`. */
  marker: string;
  /** `helm v3.17.2`, `kustomize v5.5.0`. */
  toolVersion?: string;
  /** Helm: the release, its namespace and the value files applied (values.yaml first). */
  release?: string;
  namespace?: string;
  valueFiles?: string[];
  /** The options file, when the folder has one. */
  optionsFile?: string;
  /** Its options' clusterAffinity: a scoped unit's objects go only to the clusters it selects. */
  scope?: ClusterAffinity;
}

/** One file's objects, before cross-file checks (duplicates, scopes). */
export interface FileObjects {
  file: string;
  /** Templates with their namespace as written (undefined when absent): scope is known only repo-wide. */
  templates: {
    ref: Omit<ObjectRef, 'namespace'> & { namespace: string | undefined };
    manifest: Record<string, unknown>;
    source: SourceSpan;
    fieldSources?: Record<string, SourceSpan>;
    origin?: SourceSpan;
    originInArchive?: string;
    originArchiveLine?: number;
    /**
     * Where a field is written, for a custom resource (checked against its CRD once every file is read). In memory
     * only: a copy read back from a cache has none, and its problems are at the object.
     */
    locate?: (path: readonly (string | number)[], at?: 'key') => SourceSpan;
  }[];
  /** Set when the "file" is a Helm or Kustomize unit (file = its marker): its templates are the tool's output. */
  unit?: UnitOrigin;
  propagationPolicies: Located<PropagationPolicy>[];
  overridePolicies: Located<OverridePolicy>[];
  clusterTaintPolicies: Located<ClusterTaintPolicy>[];
  clusters: Located<Cluster>[];
  rebalancers: Located<WorkloadRebalancer>[];
  interpreterCustomizations: Located<AnyInterpreterCustomization>[];
  /** Identities of objects that are in the file but invalid: they keep their last good output. */
  broken: ObjectRef[];
  /** The file could not be parsed at all: everything it rendered last time is held. */
  unreadable: boolean;
  problems: Problem[];
}

/** What a file holds before its documents are read: nothing, and no problems; `with` sets what is known already. */
export function emptyFileObjects(file: string, with_: Partial<FileObjects> = {}): FileObjects {
  return {
    file,
    templates: [],
    propagationPolicies: [],
    overridePolicies: [],
    clusterTaintPolicies: [],
    clusters: [],
    rebalancers: [],
    interpreterCustomizations: [],
    broken: [],
    unreadable: false,
    problems: [],
    ...with_,
  };
}

export interface ConfigModel {
  templates: Map<string, Template>;
  propagationPolicies: Located<PropagationPolicy>[];
  overridePolicies: Located<OverridePolicy>[];
  /** Read by the status writer (which taints a cluster gets), not by the render. */
  clusterTaintPolicies: Located<ClusterTaintPolicy>[];
  clusters: Map<string, Located<Cluster>>;
  /** Reschedule requests (WorkloadRebalancer): each listed workload is scheduled afresh once. */
  rebalancers: Located<WorkloadRebalancer>[];
  /** Declarative interpreter hooks for custom kinds. */
  interpreterCustomizations: Located<AnyInterpreterCustomization>[];
  /** refKeys whose previous output must be kept as it is (invalid, duplicated). */
  held: Set<string>;
  /** Held templates whose output would share a file with another's (PATH_COLLISION), by refKey. */
  collided?: Map<string, Template>;
  /** Files that could not be parsed: what they rendered before is held. */
  unreadableFiles: Set<string>;
  /** Helm and Kustomize units read, by marker file (a template's source.file). */
  units?: Map<string, UnitOrigin>;
  problems: Problem[];
}
