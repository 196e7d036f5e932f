// networking.karmada.io/v1alpha1 MultiClusterService: its fields (the CRD, pkg/apis/networking/v1alpha1/
// service_types.go) and the admission rules of Karmada's webhook (pkg/webhook/multiclusterservice/validating.go:
// the name a DNS-1035 label, one exposure type of CrossCluster or LoadBalancer, port names DNS-1123 labels and
// unique, ports 1-65535, provider and consumer cluster names valid cluster names).
import { objectMeta } from './karmadaSchemas.ts';
import { isDNS1123Label } from './kubernetesNames.ts';
import type { Schema } from './types.ts';
import { preview, validateAgainstSchema, type SchemaIssue } from './validateAgainstSchema.ts';
import { validateMetadataRules } from './validateObjectMeta.ts';

const str = (extra: { enum?: string[] } = {}): Schema => ({ type: 'string', ...extra });
const obj = (fields: Record<string, Schema>, required?: string[]): Schema =>
  required ? { type: 'object', fields, required } : { type: 'object', fields };
const list = (items: Schema): Schema => ({ type: 'array', items });
const clusterSelector = obj({ name: str() }, ['name']);

const SCHEMA: Schema = obj(
  {
    apiVersion: str({ enum: ['networking.karmada.io/v1alpha1'] }),
    kind: str({ enum: ['MultiClusterService'] }),
    metadata: objectMeta,
    spec: obj(
      {
        types: list(str()),
        ports: list(
          obj({ name: str(), port: { type: 'integer', minimum: -2147483648, maximum: 2147483647 } }, ['port']),
        ),
        range: obj({ clusterNames: list(str()) }),
        serviceProvisionClusters: list(str()),
        serviceConsumptionClusters: list(str()),
        providerClusters: list(clusterSelector),
        consumerClusters: list(clusterSelector),
      },
      ['types'],
    ),
    status: { type: 'object', fields: {}, open: true },
  },
  ['apiVersion', 'kind', 'metadata', 'spec'],
);

/** karmada-es-<name> must fit in 63 characters (clustervalidation.ValidateClusterName). */
const CLUSTER_NAME_MAX_LENGTH = 48;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

export function validateMultiClusterService(value: unknown): SchemaIssue[] {
  const issues = validateAgainstSchema(value, SCHEMA);
  if (issues.length > 0 || !isObj(value)) return issues;
  const invalid = (path: (string | number)[], message: string, fix: string) =>
    issues.push({ path, code: 'INVALID_VALUE', message, fix });
  issues.push(...validateMetadataRules(value));
  const name = (value.metadata as Obj).name as string;
  if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name))
    invalid(
      ['metadata', 'name'],
      `metadata.name is ${preview(name)}; a MultiClusterService is named as its Service, a DNS-1035 label (lowercase letters, digits and "-", starting with a letter)`,
      'rename it (and its Service) to a DNS-1035 label, e.g. web',
    );
  const spec = value.spec as Obj;
  const types = (spec.types ?? []) as string[];
  types.forEach((t, i) => {
    if (t !== 'CrossCluster' && t !== 'LoadBalancer')
      invalid(
        ['spec', 'types', i],
        `spec.types[${i}] is ${preview(t)}: ExposureType Error`,
        'use CrossCluster (or LoadBalancer)',
      );
  });
  if (new Set(types).size > 1)
    invalid(
      ['spec', 'types'],
      'MultiClusterService types should not contain more than one type',
      'keep one of the types, e.g. types: [CrossCluster]',
    );
  const portNames = new Set<string>();
  ((spec.ports ?? []) as Obj[]).forEach((p, i) => {
    const portName = p.name as string | undefined;
    if (portName) {
      if (!isDNS1123Label(portName))
        invalid(
          ['spec', 'ports', i, 'name'],
          `spec.ports[${i}].name is ${preview(portName)}, not a DNS-1123 label`,
          'use lowercase letters, digits and "-", e.g. http',
        );
      else if (portNames.has(portName))
        invalid(
          ['spec', 'ports', i, 'name'],
          `spec.ports[${i}].name ${portName} is listed twice`,
          'give each port a name of its own, or drop the duplicate',
        );
      portNames.add(portName);
    }
    const port = p.port as number;
    if (port < 1 || port > 65535)
      invalid(
        ['spec', 'ports', i, 'port'],
        `spec.ports[${i}].port is ${port}; a port is 1-65535`,
        'use the Service port to expose, e.g. 80',
      );
  });
  for (const field of ['providerClusters', 'consumerClusters'] as const) {
    ((spec[field] ?? []) as Obj[]).forEach((c, i) => {
      const cluster = c.name as string;
      if (cluster.length > CLUSTER_NAME_MAX_LENGTH || !isDNS1123Label(cluster))
        invalid(
          ['spec', field, i, 'name'],
          `spec.${field}[${i}].name is ${preview(cluster)}, not a valid cluster name (a DNS-1123 label of at most ${CLUSTER_NAME_MAX_LENGTH} characters)`,
          'name a registered cluster, as in clusters/<name>.yaml',
        );
    });
  }
  return issues;
}
