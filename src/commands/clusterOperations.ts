/**
 * The commands that edit a Cluster registration, karmadactl's verbs. Apart from clusterCommand.ts so the CLI can tell
 * one from the others without loading what edits and commits a registration (isomorphic-git among it).
 */
export const CLUSTER_OPERATIONS = ['join', 'unjoin', 'cordon', 'uncordon', 'taint'] as const;
export type ClusterOperation = (typeof CLUSTER_OPERATIONS)[number];
