/**
 * The status fields a Kubernetes type writes even at their zero value (no omitempty in its JSON tag), with that value,
 * by apiVersion/kind. Karmada serialises typed statuses (a member's reflected status, a template's aggregated one), so
 * these are there at 0 (or null) where every other field is left out when it holds nothing.
 */
export const STATUS_ZERO_VALUES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'apps/v1/ReplicaSet': { replicas: 0 },
  'apps/v1/DaemonSet': { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  'apps/v1/StatefulSet': { replicas: 0, availableReplicas: 0 },
  'policy/v1/PodDisruptionBudget': { disruptionsAllowed: 0, expectedPods: 0, desiredHealthy: 0, currentHealthy: 0 },
  'autoscaling/v2/HorizontalPodAutoscaler': { desiredReplicas: 0, currentMetrics: null },
};
