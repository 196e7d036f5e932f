import type { Cluster } from '../api/cluster.ts';
import type { Template, TemplateVariant } from '../api/model.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';

/**
 * Whether a template may go to the cluster: always for one without variants; for one scoped units output, when one of
 * their scopes (flotilla-unit.yaml clusterAffinity) selects it. The scheduler gets only these clusters as candidates,
 * as if the scope were one more affinity term of the placement.
 */
export function scopeSelects(template: Pick<Template, 'variants'>, cluster: Cluster): boolean {
  return !template.variants || template.variants.some((v) => matchClusterAffinity(v.scope, cluster));
}

/** The variant whose scope selects the cluster; undefined for a template without variants or out of every scope. */
export function variantOn(template: Pick<Template, 'variants'>, cluster: Cluster): TemplateVariant | undefined {
  return template.variants?.find((v) => matchClusterAffinity(v.scope, cluster));
}

/**
 * The template as the cluster gets it: its own variant's labels, manifest and source in place of the first
 * variant's. The same template for one without variants, and for a cluster out of every scope (a dependency attached
 * there by a parent, or a task draining it) that keeps the first variant.
 */
export function templateOn(template: Template, cluster: Cluster): Template {
  const v = variantOn(template, cluster);
  if (!v || v === template.variants![0]) return template;
  return withVariant(template, v);
}

/** The template with the variant's fields in place of its own (pure). */
export function withVariant(template: Template, v: TemplateVariant): Template {
  const { fieldSources: _f, origin: _o, originInArchive: _a, originArchiveLine: _l, ...rest } = template;
  return {
    ...rest,
    labels: v.labels,
    manifest: v.manifest,
    source: v.source,
    ...(v.fieldSources ? { fieldSources: v.fieldSources } : {}),
    ...(v.origin ? { origin: v.origin } : {}),
    ...(v.originInArchive ? { originInArchive: v.originInArchive } : {}),
    ...(v.originArchiveLine ? { originArchiveLine: v.originArchiveLine } : {}),
  };
}

/** The marker files of the units whose variants a template has, in order ([] without variants). */
export function variantUnits(template: Pick<Template, 'variants'>): string[] {
  return template.variants?.map((v) => v.unit) ?? [];
}
