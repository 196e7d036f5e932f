import type { SourceSpan } from '../errors/problem.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { readRef } from '../commits/readRef.ts';
import { LAST_GOOD_TRAILER, parseTrailers } from '../branches/rendered/trailers.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import type { GitRepo } from '../commits/types.ts';
import type { ConfigModel } from '../api/model.ts';
import { statusBranchAutoscaled, withAutoscaledReplicas } from '../outputs/autoscaledTemplates.ts';
import { loadSource } from '../outputs/loadSource.ts';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from '../outputs/sourceLimits.ts';
import { readPreviousOutputs } from '../outputs/previousOutputs.ts';
import { withClusterStatus } from '../outputs/renderSnapshot.ts';
import { renderHistoryAt } from '../outputs/lastGoodKarmada.ts';
import { renderTemplates, type TemplateExplanation } from '../works/renderTemplates.ts';

export interface TemplateExplained {
  source: SourceSpan | null;
  explanation: TemplateExplanation | null;
}

/**
 * Where `flotilla explain` starts from (outputs/previousOutputs.ts readOutputBranch): the output commit before the
 * one that rendered `sourceSha`, or the head when it is not rendered yet; undefined when there is none.
 */
async function outputBefore(repo: GitRepo, outputRef: string, sourceSha: string): Promise<string | undefined> {
  const head = await readRef(repo, outputRef);
  for (let cursor = head ?? undefined, n = 0; cursor && n < MAX_COMMITS; n++) {
    const info = await readCommitInfo(repo, cursor);
    if (parseTrailers(info.message)['Source-Commit'] === sourceSha) return info.parents[0];
    cursor = info.parents[0];
  }
  return head ?? undefined;
}

const MAX_COMMITS = 1_000;

/**
 * `flotilla explain` of one template at the source head: scheduled from the same previous result explain starts from,
 * but with the source loaded the way sync loads it (the rendered branch's index stands for every file the change since
 * that result does not name), and only that template, its parents and what the change affects scheduled. A template of a 10,000-
 * template fleet costs the policies and clusters, not the whole commit. null when the rendered branch has no render
 * to continue from (or its source commit is gone): the caller renders the whole commit, as `flotilla explain` does.
 */
export async function explainTemplate(
  repo: GitRepo,
  key: string,
  refs: { source: string; rendered: string; status: string },
  now: Date,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<TemplateExplained | null> {
  const one = await explainTemplateIn(repo, key, refs, now, limits);
  return one && { source: one.model.templates.get(key)?.source ?? null, explanation: one.explanation };
}

/**
 * explainTemplate, with the model it scheduled from (every cluster, the template's units): what `flotilla explain`
 * prints beside the explanation.
 */
export async function explainTemplateIn(
  repo: GitRepo,
  key: string,
  refs: { source: string; rendered: string; status: string },
  now: Date,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<{ model: ConfigModel; explanation: TemplateExplanation | null } | null> {
  const sourceSha = await resolveRev(repo, refs.source);
  const base = await outputBefore(repo, refs.rendered, sourceSha);
  if (!base) return null;
  const last = await readLastRenderAt(repo, base);
  if (!last.rendered || !last.source) return null;
  const lastGood = parseTrailers(last.rendered.message)[LAST_GOOD_TRAILER] ?? last.source;
  const previousTree = await readCommitInfo(repo, lastGood).then(
    (c) => c.tree,
    () => null,
  );
  const baseTree = (await readCommitInfo(repo, base)).tree;
  const index = previousTree ? await openOutputIndex(repo, baseTree) : null;
  if (!previousTree || !index) return null;
  const source = await readCommitInfo(repo, sourceSha);
  // A broken policy or Cluster: the definition the render kept, from the renders before it.
  const history = await renderHistoryAt(repo, base, index);
  const loaded = await loadSource(repo, source.tree, { tree: previousTree, index }, new Set([key]), limits, history);
  if (loaded.full) await index.loadAll();
  await index.load({ templates: loaded.affected });
  await index.load({ templates: [...loaded.affected].flatMap((k) => index.parentsOf(k)) });
  const previous = await readPreviousOutputs(repo, baseTree, loaded.affected, index, loaded.onlyClustersChanged);
  await index.load({ templates: previous.takenBy.values() });
  const observed = await readObservedClusters(repo, refs.status);
  const model = withAutoscaledReplicas(
    withClusterStatus(loaded.model, observed),
    await statusBranchAutoscaled(repo, refs.status),
  );
  const out = await renderTemplates({
    model,
    affected: loaded.affected,
    previousIndex: index,
    previousBindings: previous.bindings,
    previousFiles: previous.files,
    previousParsed: previous.parsed,
    sourceCommit: sourceSha,
    // As `flotilla explain`: a clock for taint evictions, no template health (a task ends by its grace period).
    failover: { now, observed: new Map() },
    onlyClustersChanged: loaded.onlyClustersChanged,
    takenPaths: previous.takenBy,
  });
  return { model, explanation: out.explanations.get(key) ?? null };
}
