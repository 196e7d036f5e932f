// Builders for the render stages' unit tests: a ConfigModel, templates, policies and clusters written inline, no
// fixture repo and no git.
import type { Cluster, ClusterSpec } from '../../src/api/cluster.ts';
import { refKey } from '../../src/api/kinds.ts';
import type { OverridePolicy, PropagationPolicy, PropagationSpec } from '../../src/api/policy.ts';
import type { WorkloadRebalancer } from '../../src/api/rebalancer.ts';
import type { ConfigModel, Located, Template } from '../../src/api/model.ts';
import { emptyIndex, viewOfWhole } from '../../src/branches/rendered/outputIndex.ts';
import type { RenderInput } from '../../src/works/renderTemplates.ts';

/** A template from its manifest; its namespace is 'default' unless the manifest names one or `clusterScoped`. */
export function templateOf(
  manifest: Record<string, unknown>,
  file = 'templates/app.yaml',
  clusterScoped = false,
): Template {
  const meta = (manifest.metadata ?? {}) as { name: string; namespace?: string; labels?: Record<string, string> };
  return {
    ref: {
      apiVersion: String(manifest.apiVersion),
      kind: String(manifest.kind),
      namespace: clusterScoped ? '' : (meta.namespace ?? 'default'),
      name: meta.name,
    },
    labels: meta.labels ?? {},
    manifest,
    source: { file, line: 1, column: 1 },
  };
}

export function deployment(name: string, replicas: number, extra: Record<string, unknown> = {}): Template {
  return templateOf(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'default' },
      spec: { replicas, template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }, ...extra },
    },
    `templates/${name}.yaml`,
  );
}

export function configMap(name: string): Template {
  return templateOf(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { key: 'value' } },
    `templates/${name}.yaml`,
  );
}

export function propagationPolicy(
  name: string,
  spec: PropagationSpec,
  file = `policies/${name}.yaml`,
): Located<PropagationPolicy> {
  return {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name, namespace: 'default' },
      spec,
    },
    source: { file, line: 1, column: 1 },
  };
}

export function overridePolicy(
  name: string,
  spec: OverridePolicy['spec'],
  file = `policies/${name}.yaml`,
): Located<OverridePolicy> {
  return {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name, namespace: 'default' },
      spec,
    },
    source: { file, line: 1, column: 1 },
  };
}

export function memberCluster(name: string, spec: Partial<ClusterSpec> = {}, labels?: Record<string, string>): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { syncMode: 'Push', ...spec },
  };
}

export interface ModelParts {
  templates?: Template[];
  policies?: Located<PropagationPolicy>[];
  overrides?: Located<OverridePolicy>[];
  clusters?: Cluster[];
  rebalancers?: WorkloadRebalancer[];
}

export function modelOf(parts: ModelParts): ConfigModel {
  return {
    templates: new Map((parts.templates ?? []).map((t) => [refKey(t.ref), t])),
    propagationPolicies: parts.policies ?? [],
    overridePolicies: parts.overrides ?? [],
    clusterTaintPolicies: [],
    clusters: new Map(
      (parts.clusters ?? []).map((c) => [
        c.metadata.name,
        { object: c, source: { file: `clusters/${c.metadata.name}.yaml`, line: 1, column: 1 } },
      ]),
    ),
    rebalancers: (parts.rebalancers ?? []).map((r) => ({
      object: r,
      source: { file: `rebalancers/${r.metadata.name}.yaml`, line: 1, column: 1 },
    })),
    interpreterCustomizations: [],
    held: new Set(),
    unreadableFiles: new Set(),
    problems: [],
  };
}

/** Every cluster of the model, sorted by name: the scheduler's snapshot. */
export function clustersOf(model: ConfigModel): Cluster[] {
  return [...model.clusters.values()].map((c) => c.object).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

/** renderTemplates' input for a cold render of `model`: every template affected, nothing rendered before. */
export function coldRenderInput(model: ConfigModel, extra: Partial<RenderInput> = {}): RenderInput {
  return {
    model,
    affected: new Set(model.templates.keys()),
    previousIndex: viewOfWhole(emptyIndex()),
    previousBindings: new Map(),
    previousFiles: new Map(),
    sourceCommit: 'c'.repeat(40),
    ...extra,
  };
}
