import type { ResourceBinding } from '../api/binding.ts';
import type { ConfigModel } from '../api/model.ts';
import { parseRefKey, type ObjectRef } from '../api/kinds.ts';
import { readBlame, type Blame, type BlameError } from '../audits/readBlame.ts';
import { readObjectHistory, type HistoryEntry } from '../audits/readObjectHistory.ts';
import { bindingPath, manifestPath } from '../branches/rendered/outputPaths.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import type { SourceSpan } from '../errors/problem.ts';
import { renderUnifiedDiff } from '../plans/renderUnifiedDiff.ts';
import type { TemplateExplanation } from '../works/renderTemplates.ts';
import { yaml } from './manifestYaml.ts';
import { redactSecret } from '../views/redactSecret.ts';
import { readDocuments, type Fleet } from '../views/readFleet.ts';
import { readTemplates, readTemplateViews } from '../views/readListing.ts';
import { headsOf, type Heads } from './readFleetView.ts';

type Obj = Record<string, unknown>;

/** GET /ui/api/explain?key=<refKey>: where the template is written and why it went where it went. */
export interface ObjectPlacement {
  heads: Heads;
  key: string;
  /** Where the template is written, at the source head; null when the source head no longer has it. */
  source: SourceSpan | null;
  /** `flotilla explain <kind>/<name> -o json`; null when the source head no longer has the template. */
  explanation: TemplateExplanation | null;
}

export function placementOf(
  fleet: Fleet,
  key: string,
  explained: { model: ConfigModel; explanations: ReadonlyMap<string, TemplateExplanation> },
): ObjectPlacement {
  return {
    heads: headsOf(fleet),
    key,
    source: explained.model.templates.get(key)?.source ?? null,
    explanation: explained.explanations.get(key) ?? null,
  };
}

/** GET /ui/api/object?key=<refKey>: one template traced from the rendered branch to each member. */
export interface ObjectTrace {
  heads: Heads;
  key: string;
  ref: ObjectRef;
  /** `flotilla get <kind> NAME -o json`. */
  object: Obj;
  /** The binding as the rendered branch holds it (`flotilla get rb NAME -o json` without the status it adds). */
  binding: Obj | null;
  clusters: ClusterTrace[];
  /** `flotilla history <kind>/<name> -o json`, newest first. */
  history: HistoryEntry[];
}

export interface ClusterTrace {
  name: string;
  path: string;
  /** The manifest rendered for this cluster, as YAML (a Secret's values redacted). */
  manifest: string | null;
  /**
   * A unified diff from the template to that manifest: what overrides and Flotilla's own labels changed. For an
   * object scoped units output, from the cluster's own variant.
   */
  diff: string;
  /** Set for an object scoped units output: the marker file of the unit whose variant this cluster got. */
  unit?: string;
  status: AggregatedStatusItem | null;
  /** `flotilla blame --cluster C <kind>/<name> -o json`, or why there is none. */
  blame: Blame | BlameError;
}

/**
 * Reads one template's trace from the branches; null when the rendered index does not know `key`. Why it went where
 * it went is `ObjectPlacement`, apart: it renders the whole source commit, which at 10,000 templates takes seconds.
 */
export async function readObjectTrace(
  fleet: Fleet,
  key: string,
  refs: { renderedRef: string; statusRef: string },
): Promise<ObjectTrace | null> {
  const entry = (await fleet.rendered?.index.entriesOf([key]))?.get(key);
  if (!fleet.rendered || !entry) return null;
  const ref = parseRefKey(key);
  const [view] = await readTemplateViews(fleet, [{ ref, entry }]);
  const paths = entry.clusters.map((c) => manifestPath(c, ref));
  const manifests = await readDocuments(fleet.repo, fleet.rendered, [...paths, bindingPath(ref)]);
  const template = redactSecret(view!.manifest);
  const templateText = yaml(template);
  const aggregated = ((view!.object.status as Obj | undefined)?.aggregatedStatus ?? []) as AggregatedStatusItem[];
  // Scoped units: each cluster's manifest is made from its own unit's variant, so that is what it differs from.
  const variants = entry.units ?? [];
  const variantTexts = (
    await readTemplates(
      fleet,
      variants.map((u) => ({ ref, entry: { file: u.file } })),
    )
  ).map((m) => (m === undefined ? templateText : yaml(redactSecret(m))));
  const clusters: ClusterTrace[] = [];
  for (const [i, name] of entry.clusters.entries()) {
    const rendered = manifests.get(paths[i]!)?.[0];
    const text = rendered === undefined ? null : yaml(redactSecret(rendered));
    const v = variants.findIndex((u) => u.clusters.includes(name));
    clusters.push({
      name,
      path: paths[i]!,
      manifest: text,
      diff: renderUnifiedDiff(v < 0 ? templateText : variantTexts[v]!, text, { path: paths[i]! }),
      ...(v < 0 ? {} : { unit: variants[v]!.file }),
      status: aggregated.find((a) => a.clusterName === name) ?? null,
      blame: await readBlame(fleet.repo, { cluster: name, ref, ...refs }),
    });
  }
  return {
    heads: headsOf(fleet),
    key,
    ref,
    object: view!.object,
    binding: (manifests.get(bindingPath(ref))?.[0] as ResourceBinding | undefined as Obj | undefined) ?? null,
    clusters,
    history: await readObjectHistory(fleet.repo, refs.renderedRef, {
      kind: ref.kind,
      name: ref.name,
      namespace: ref.namespace,
      maxCommits: 500,
    }),
  };
}
