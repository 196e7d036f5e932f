import type { ConfigModel, Template, UnitOrigin } from '../api/model.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { describeHook } from './syncHooks.ts';

/**
 * The unit a template came from, as plan, explain, history and blame name it (pure): `Helm chart helm-guestbook
 * (release helm-guestbook in default, values helm-guestbook/values.yaml[, options helm-guestbook/flotilla-unit.yaml];
 * helm v3.17.2), helm-guestbook/templates/deployment.yaml` or `Kustomize folder apps/staging (apps/staging/kustomization.yaml; kustomize v5.5.0),
 * apps/base/podinfo/release.yaml`.
 */
export function describeUnit(unit: UnitOrigin, originFile?: string, originInArchive?: string): string {
  const tool = unit.toolVersion ? `; ${unit.toolVersion}` : '';
  // The file the object came from: the template Helm named (a packed subchart's in its archive, as the render's
  // problems name it), the resource (or base's) Kustomize's origin named.
  const file =
    originFile && originFile !== unit.marker
      ? `, ${originInArchive ? `${originInArchive} in ${originFile}` : originFile}`
      : '';
  // The options file holds inline values, parameters and kustomize edits: as much a source of a change as a value file.
  const options = unit.optionsFile ? `, options ${unit.optionsFile}` : '';
  if (unit.tool === 'helm') {
    const values = unit.valueFiles?.length ? `, values ${unit.valueFiles.join(', ')}` : '';
    const release = unit.release ? `release ${unit.release} in ${unit.namespace ?? 'default'}` : unit.marker;
    return `Helm chart ${unit.dir} (${release}${values}${options}${tool})${file}`;
  }
  return `Kustomize folder ${unit.dir} (${unit.marker}${options}${tool})${file}`;
}

/**
 * describeUnit for a template of the model, with what Flotilla does with it when it is a hook (Helm's or Argo CD's);
 * for a plain file's template, its file and line when it is a hook, else undefined (the file says it all). For one
 * scoped units output, each unit with the registered clusters that get its variant: `Kustomize folder apps/production
 * (…) on production; Kustomize folder apps/staging (…) on staging`.
 */
export function describeTemplateUnit(
  model: Pick<ConfigModel, 'units' | 'clusters'>,
  template: Template | undefined,
): string | undefined {
  if (template?.variants) {
    const clusters = [...model.clusters.values()].map((c) => c.object);
    return template.variants
      .map((v) => {
        const unit = model.units?.get(v.unit);
        const on = clusters.filter((c) => matchClusterAffinity(v.scope, c)).map((c) => c.metadata.name);
        const hook = describeHook(v.manifest);
        const described = `${unit ? describeUnit(unit, v.origin?.file, v.originInArchive) : v.unit}${hook ? ` (${hook})` : ''}`;
        return `${described} on ${on.length > 0 ? on.sort().join(', ') : 'no registered cluster'}`;
      })
      .join('; ');
  }
  if (!template) return undefined;
  const unit = model.units?.get(template.source.file);
  const hook = describeHook(template.manifest);
  if (!unit) return hook ? `${template.source.file}:${template.source.line}; ${hook}` : undefined;
  return `${describeUnit(unit, template.origin?.file, template.originInArchive)}${hook ? `; ${hook}` : ''}`;
}
