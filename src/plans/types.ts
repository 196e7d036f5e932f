// The plan of a change (base commit -> head commit), as every formatter and the JSON contract read it.
import type { Problem } from '../errors/problem.ts';
import type { PruneVerdict } from '../deliveries/checkPruneSafety.ts';
import type { OverrideCause, QuietOverride } from './overrideCauses.ts';

/** One object of one cluster: its ref (`<apiVersion>/<kind>/<namespace>/<name>`), output path and diff. */
export interface PlannedObject {
  ref: string;
  path: string;
  /**
   * Unified diff of the manifest, source-commit stamp left out; added/removed objects diff against nothing. A Secret's
   * values are masked as kubectl diff masks them (`***`, `*** (before)`, `*** (after)`).
   */
  diff: string;
  /** The override rules whose effect on this object here differs between base and head (the Work's applied-overrides). */
  overrides?: OverrideCause[];
}

export interface ClusterPlan {
  added: PlannedObject[];
  changed: PlannedObject[];
  removed: PlannedObject[];
  /**
   * Objects leaving the cluster's folder under preserveResourcesOnDeletion: the member keeps them, without Karmada's
   * claim, no longer managed (Terraform's "forget"). Their diff is ''; prune safety does not count them.
   */
  released: PlannedObject[];
}

export interface ReplicaMove {
  ref: string;
  cluster: string;
  from: number;
  to: number;
}

/** Why a template's placement changed, from the head render's explanation. */
export interface SchedulingNote {
  ref: string;
  policy?: string;
  status: string;
  message: string;
  clusters: { cluster: string; outcome: string; replicas?: number; why: string }[];
}

/** An object the change adds or changes that an operator must look at twice (lookTwice.ts), on which clusters. */
export interface LookTwiceNote {
  ref: string;
  clusters: string[];
  reasons: string[];
}

export interface Plan {
  base: string;
  head: string;
  /** Problems of severity error in the head commit: what a PR check fails on. */
  errors: Problem[];
  warnings: Problem[];
  /** Only clusters where something changes, in name order. */
  clusters: Record<string, ClusterPlan>;
  replicas: ReplicaMove[];
  scheduling: SchedulingNote[];
  /** Added or changed objects to look at twice: cluster-wide RBAC, kube-* namespaces, overwrite, Secrets. */
  lookTwice: LookTwiceNote[];
  prune: PruneVerdict;
  /** OverridePolicies and ClusterOverridePolicies the change adds or edits that change nothing a member gets. */
  quietOverrides?: QuietOverride[];
  /** Objects of the change that a Helm chart or Kustomize folder output, with the unit (release, value files) named. */
  sources?: {
    ref: string;
    source: string;
    /** Set when scoped units output the object: the clusters whose change came from this unit's variant. */
    clusters?: string[];
  }[];
}
