// The scheduler's vocabulary: what goes in (a binding's scheduling inputs), what comes out (the target
// clusters plus a per-cluster explanation), and the per-cycle view of one feasible cluster.
import type { TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import type { Placement } from '../api/policy.ts';

export interface SchedulingRequest {
  resource: { apiVersion: string; kind: string; namespace: string; name: string; uid?: string };
  /** Already webhook-defaulted. */
  placement: Placement;
  /** spec.replicas; 0 without replicaRequirements is a non-workload: every candidate gets 0 replicas. */
  replicas: number;
  /**
   * The binding carries spec.replicaRequirements (its pod template requests resources or claims nodes): then it is a
   * workload even at 0 replicas (Karmada's IsWorkload), divided like one, so at 0 it is placed nowhere.
   */
  replicaRequirements?: boolean;
  /** Per-replica requests, e.g. { cpu: '1', memory: '512Mi' }. */
  resourceRequest?: Record<string, string | number>;
  /** The previous binding's spec.clusters ([] if none). */
  previous: TargetCluster[];
  /** JSON of the placement the previous result was computed for (applied-placement annotation). */
  previousPlacement?: string;
  /** The previous status.schedulerObservedAffinityName. */
  observedAffinityName?: string;
  /** Clusters named by the binding's graceful eviction tasks: the ClusterEviction filter keeps them out. */
  evictingClusters?: string[];
  /** Explicit reschedule (WorkloadRebalancer): fresh mode, clusterAffinities restart at term 0. */
  reschedule?: boolean;
  /**
   * Registered clusters kept from the candidates before scheduling (a scoped unit's clusterAffinity), with why: not
   * in `clusters`, reported as filtered in the reasons and in a no-fit message.
   */
  excluded?: Extract<ClusterExplanation, { outcome: 'filtered' }>[];
  /**
   * false: a successful result explains the filtered clusters only, not each candidate's replicas and score (a render
   * that writes the output branch drops those reasons: RenderInput.clusterReasons). A failure keeps them all: its
   * problem shows them.
   */
  candidateReasons?: false;
}

/** Karmada's Scheduled condition reasons, plus Unchanged when Karmada would not schedule at all. */
export type ScheduleStatus = 'Scheduled' | 'NoClusterFit' | 'Unschedulable' | 'SchedulerError' | 'Unchanged';

export type FilterPluginName =
  | 'APIEnablement'
  | 'TaintToleration'
  | 'ClusterAffinity'
  | 'SpreadConstraint'
  | 'ClusterEviction';

export type ClusterExplanation =
  | {
      cluster: string;
      outcome: 'filtered';
      plugin: FilterPluginName;
      /** Karmada's filter reason, which its no-fit message counts. */
      reason: string;
      /** What of the placement the cluster fails, where the reason does not say. */
      detail?: string;
    }
  | {
      cluster: string;
      /** selected: holds replicas in the result; notSelected: feasible but left out by selection or division. */
      outcome: 'selected' | 'notSelected';
      replicas: number;
      score: number;
      /** Free replicas estimated for this cluster plus replicas it already holds. */
      available: number;
      weight?: number;
      why: string;
    };

export interface ScheduleResult {
  status: ScheduleStatus;
  /** NoClusterFit -> []; Unschedulable/SchedulerError -> previous kept; Unchanged -> previous. */
  clusters: TargetCluster[];
  affinityName?: string;
  /** The Scheduled condition's message, as Karmada's scheduler words it. */
  message: string;
  /** What a failure's message does not say: each cluster's or each affinity term's own problem. */
  detail?: string;
  explanation: ClusterExplanation[];
}

/** One feasible cluster as the select and assign steps see it (Karmada's ClusterDetailInfo). */
export interface CandidateCluster {
  name: string;
  cluster: Cluster;
  score: number;
  /** 0 for the active affinity term, k for its k-th overflow affinity. */
  overflowOrder: number;
  /** Estimated free replicas plus the replicas the previous result already put here. */
  availableReplicas: number;
  /** Estimated free replicas only. */
  allocatableReplicas: number;
}

/** Why a step could not produce a result; becomes the Scheduled condition reason. */
export interface StepFailure {
  ok: false;
  status: 'Unschedulable' | 'SchedulerError';
  /** Karmada's error text. */
  message: string;
  /** Flotilla's account of it, where Karmada's text names no numbers. */
  detail?: string;
}
export type StepResult<T> = { ok: true; value: T } | StepFailure;
