/**
 * The counters of a workload's status, by apiVersion/kind, in Karmada's order: what its reflectstatus.go grabs from a
 * member (with observedGeneration for some kinds) and what its aggregatestatus.go sums over the members.
 */
export const STATUS_COUNTERS = {
  'apps/v1/Deployment': ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
  'apps/v1/StatefulSet': ['availableReplicas', 'currentReplicas', 'readyReplicas', 'replicas', 'updatedReplicas'],
  'apps/v1/ReplicaSet': ['replicas', 'readyReplicas', 'availableReplicas'],
  'apps/v1/DaemonSet': [
    'currentNumberScheduled',
    'desiredNumberScheduled',
    'numberAvailable',
    'numberMisscheduled',
    'numberReady',
    'updatedNumberScheduled',
    'numberUnavailable',
  ],
  'autoscaling/v2/HorizontalPodAutoscaler': ['currentReplicas', 'desiredReplicas'],
} as const satisfies Readonly<Record<string, readonly string[]>>;
