// Shared vocabulary of the member-cluster emulator. JSON objects travel as plain data; spec and status stay
// loosely typed because the emulator stores every kind, including custom resources it has never seen.

import type { StructuralSchema } from '../api/listSemantics.ts';

import type { OwnerReference } from '../api/metadataShapes.ts';
export type { OwnerReference };

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  /** Absent on a scale subresource's entries, as the API server writes them. */
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: any;
  status?: any;
  [key: string]: any;
}

import type { PrintColumn } from '../printers/printedObject.ts';
export type { PrintColumn };

export type Subresource = 'status' | 'scale' | 'finalize' | 'log' | 'exec' | 'attach' | 'portforward';

/** One row of the resource registry: everything discovery, openapi, routing and printing need about a kind. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  subresources: Subresource[];
  /** Bump metadata.generation when anything outside metadata and status changes. */
  tracksGeneration: boolean;
  columns: PrintColumn[];
  /** Set for kinds defined by a CustomResourceDefinition (the CRD's name). */
  crd?: string;
  /** A custom resource version's structural schema (openAPIV3Schema): how server-side apply merges its lists. */
  schema?: StructuralSchema;
  /** A custom resource version's selectableFields, as their jsonPaths (`.spec.color`). */
  selectableFields?: string[];
  /** Custom resources cannot take strategic merge patches. */
  strategicMerge: boolean;
  /**
   * Served from a computation over the store rather than stored (metrics.k8s.io): only get and list, which
   * is also what discovery lists for it.
   */
  computed?: 'metrics' | 'review';
}

/** A simulated node (KWOK-style): no kubelet, just capacity the scheduler places pods against. */
export interface NodeSpec {
  name: string;
  /** Kubernetes quantities, e.g. '8', '32Gi', '110'. */
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  /** `group/plural` of the object ('' group for core). */
  resource: string;
  object: KubeObject;
  /** The object before a MODIFIED or DELETED change. */
  previous?: KubeObject;
  resourceVersion: number;
}
