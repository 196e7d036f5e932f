// The replica counts of the workload kinds whose replicas Flotilla divides (interpreters/interpretReplicas.ts):
// Kubernetes declares them int32 and its API validation requires them non-negative
// (apps/v1 DeploymentSpec, StatefulSetSpec, ReplicaSetSpec .replicas; batch/v1 JobSpec .parallelism and
// .completions). A template outside that range would be refused by every member API server; here it is a
// located problem before it reaches the scheduler, which would otherwise divide 10^12 replicas.
import type { Schema } from './types.ts';
import { validateAgainstSchema, type SchemaIssue } from './validateAgainstSchema.ts';

const INT32_MAX = 2147483647;
const count: Schema = { type: 'integer', minimum: 0, maximum: INT32_MAX };
const openSpec = (fields: Record<string, Schema>): Schema => ({
  type: 'object',
  open: true,
  fields: { spec: { type: 'object', open: true, fields } },
});

const WORKLOAD_NUMBERS: ReadonlyMap<string, Schema> = new Map([
  ['apps/v1/Deployment', openSpec({ replicas: count })],
  ['apps/v1/StatefulSet', openSpec({ replicas: count })],
  ['apps/v1/ReplicaSet', openSpec({ replicas: count })],
  ['batch/v1/Job', openSpec({ parallelism: count, completions: count })],
]);

/** Issues for a resource template's replica fields; none for kinds whose replicas Flotilla does not read. */
export function validateWorkloadNumbers(manifest: Record<string, unknown>): SchemaIssue[] {
  const schema = WORKLOAD_NUMBERS.get(`${String(manifest.apiVersion)}/${String(manifest.kind)}`);
  if (!schema) return [];
  // null means "unset" in Kubernetes, as it does for interpretReplicas.
  const spec = manifest.spec;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return [];
  const present = Object.fromEntries(Object.entries(spec as Record<string, unknown>).filter(([, v]) => v !== null));
  return validateAgainstSchema({ spec: present }, schema);
}
