// Which graceful eviction tasks a render must look at again. Karmada's graceful eviction controller ends a task when
// its grace period runs out or when every cluster of the new result reports the object healthy
// (controllers/gracefuleviction/evictiontask.go); nothing else of the binding's own state moves it. So a template
// whose binding holds tasks renders again only when its aggregated status on the status branch moved since the last
// render, or when the earliest grace end that render recorded (Eviction-Check) has come, or after a render that
// made tasks. Of those, only the templates whose last binding has a task that ends now render: the others keep it.
import { parseRefKey } from '../api/kinds.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { readTemplateStatuses } from '../branches/status/readStatusBranch.ts';
import { templateStatusPath } from '../branches/status/statusFiles.ts';
import { assessEvictionTasks, earliestGraceEnd } from '../evictions/gracefulEviction.ts';
import { bindsTemplate, readBindingsAt } from './previousOutputs.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import {
  AUTOSCALED_TRAILER,
  commitTrailers,
  EVICTION_CHECK_NEVER,
  EVICTION_CHECK_TRAILER,
  GRACEFUL_EVICTIONS_TRAILER,
  LAST_GOOD_TRAILER,
  RENDER_TOOLS_TRAILER,
} from '../branches/rendered/trailers.ts';
import { recordedStatusCommit } from './recordedState.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { formatTime } from '../time/formatTime.ts';

/**
 * The Eviction-Check a trailer records, in milliseconds: Infinity for `never`, undefined when absent or unreadable
 * (an output written before the trailer existed: every task is looked at).
 */
export function recordedEvictionCheck(trailers: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = trailers[EVICTION_CHECK_TRAILER];
  if (text === EVICTION_CHECK_NEVER) return Number.POSITIVE_INFINITY;
  const at = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * Whether every task of the render whose trailers these are must be looked at, whatever moved: its Eviction-Check has
 * come or is unknown, or the status it or this render reads is not a commit (a file, none) to diff.
 */
function everyTaskDue(
  trailers: Readonly<Record<string, string | undefined>>,
  statusCommit: string | null | undefined,
  now: Date,
): boolean {
  const check = recordedEvictionCheck(trailers);
  return check === undefined || check <= now.getTime() || !recordedStatusCommit(trailers) || !statusCommit;
}

/**
 * Whether the render whose trailers these are leaves eviction tasks a sync must look at now, decided without reading
 * any tree: every task is due (everyTaskDue), or the status commit moved since it (a template's health may have).
 */
export function evictionsMayEnd(
  trailers: Readonly<Record<string, string | undefined>>,
  statusCommit: string | null | undefined,
  now: Date,
): boolean {
  if (!trailers[GRACEFUL_EVICTIONS_TRAILER]) return false;
  return everyTaskDue(trailers, statusCommit, now) || recordedStatusCommit(trailers) !== statusCommit;
}

/**
 * The templates holding graceful eviction tasks (the index's evicting list) that this render looks at again: every one
 * when everyTaskDue, or when the last render's status commit cannot be read; otherwise those whose status file differs
 * between the last render's status commit and this one's.
 */
export async function evictionsThatMayEnd(
  repo: GitRepo,
  evicting: readonly string[],
  trailers: Readonly<Record<string, string | undefined>>,
  statusCommit: string | null | undefined,
  now: Date,
): Promise<readonly string[]> {
  if (evicting.length === 0) return [];
  if (everyTaskDue(trailers, statusCommit, now)) return evicting;
  const before = recordedStatusCommit(trailers)!;
  if (before === statusCommit) return [];
  const moved = await statusFilesMoved(repo, before, statusCommit!);
  if (!moved) return evicting;
  return evicting.filter((key) => moved.has(templateStatusPath(parseRefKey(key))));
}

/** Of the evicting templates a render looks at, which render and what the others' tasks wait for. */
export interface EvictionLook {
  /** Those with a task that ends now, or whose last binding cannot tell: they render. */
  ending: string[];
  /** The last bindings of those of `ending` that have one, as read from the output tree. */
  endingBindings: Map<string, ResourceBinding>;
  /** The others, each with the earliest grace end of its tasks (null when only a status move ends them). */
  waiting: Map<string, number | null>;
}

/**
 * Which of the evicting templates due a look (evictionsThatMayEnd) have a task that ends now, read from their last
 * bindings (in the output tree) and their status: the graceful eviction controller's test (assessEvictionTasks)
 * against the binding's result. A template nothing else renders keeps that result, so its render would find the
 * same; one something else renders is assessed by its render whatever this says. A binding that is not there, or not
 * the template's, renders.
 */
export async function evictionsEndingNow(
  repo: GitRepo,
  outputTree: string,
  due: readonly string[],
  statusSource: string,
  now: Date,
  gracePeriodSeconds: number | undefined,
): Promise<EvictionLook> {
  const refs = new Map(due.map((key) => [key, parseRefKey(key)]));
  const bindings = await readBindingsAt(
    repo,
    outputTree,
    new Map(due.map((key) => [bindingPath(refs.get(key)!), key])),
  );
  const statuses = await readTemplateStatuses(repo, statusSource, [...refs.values()]);
  const look: EvictionLook = { ending: [], endingBindings: new Map(), waiting: new Map() };
  for (const key of due) {
    const found = bindings.get(key);
    const spec = found && bindsTemplate(found, refs.get(key)!) ? found.spec : undefined;
    const tasks = spec?.gracefulEvictionTasks ?? [];
    if (!spec || tasks.length === 0) {
      look.ending.push(key);
      continue;
    }
    const { ended } = assessEvictionTasks(tasks, now, spec.clusters ?? [], statuses.get(key), gracePeriodSeconds);
    if (ended.length > 0) {
      look.ending.push(key);
      look.endingBindings.set(key, found!);
    } else look.waiting.set(key, earliestGraceEnd(tasks, gracePeriodSeconds) ?? null);
  }
  return look;
}

/**
 * The last render that left no graceful eviction under way, when it and every render from `from` back to it rendered
 * this very source with these FederatedHPA decisions (`autoscaled`, the Autoscaled-Replicas trailer's value) and the
 * same Helm and Kustomize versions (Render-Tools, as `from` records them), each of them Flotilla's commit; null
 * otherwise, at the branch's first commit, or past `maxCommits`. A cluster under a task keeps its copy unwritten while
 * the task lasts (works/renderTemplates.ts writeWorks), and a copy kept so now was a result's at that render or came
 * later: each was last written from this source, as a render of it would write it now on a cluster that takes it back,
 * unless that render held the template (a held template's files are an older source's, and a later render that lets it
 * go writes only the clusters of its result).
 */
export async function rendersOfThisSource(
  repo: GitRepo,
  from: CommitInfo,
  sourceSha: string,
  autoscaled: string,
  maxCommits = 64,
): Promise<CommitInfo | null> {
  // A unit's templates are what its tools output: a render with other tools renders them again on their results only.
  const tools = commitTrailers(from)[RENDER_TOOLS_TRAILER];
  let cursor = from;
  for (let n = 0; n < maxCommits; n++) {
    const trailers = commitTrailers(cursor);
    if (trailers['Source-Commit'] !== sourceSha || trailers[LAST_GOOD_TRAILER]) return null;
    if ((trailers[AUTOSCALED_TRAILER] ?? '') !== autoscaled || trailers[RENDER_TOOLS_TRAILER] !== tools) return null;
    if (!trailers[GRACEFUL_EVICTIONS_TRAILER]) return cursor;
    const parent = cursor.parents[0];
    if (!parent) return null;
    cursor = await readCommitInfo(repo, parent);
  }
  return null;
}

/**
 * Of the templates given, those whose copies kept under graceful eviction tasks are what a render of this source
 * writes: every render back to the last one with no task under way rendered it (rendersOfThisSource), and that one
 * held none of them (nor kept them blocked by a path collision). `lastRender` renders `sourceSha`.
 */
export async function copiesOfThisSource(
  repo: GitRepo,
  lastRender: CommitInfo,
  sourceSha: string,
  autoscaled: string,
  keys: readonly string[],
): Promise<Set<string>> {
  const since = await rendersOfThisSource(repo, lastRender, sourceSha, autoscaled);
  const then = since && (await openOutputIndex(repo, since.tree));
  if (!then) return new Set();
  await then.load({ templates: keys });
  return new Set(keys.filter((key) => !then.template(key)?.held && !then.template(key)?.blocked));
}

/** The paths that differ between two status commits; undefined when one cannot be read. */
async function statusFilesMoved(repo: GitRepo, from: string, to: string): Promise<Set<string> | undefined> {
  try {
    const [a, b] = await Promise.all([readCommitInfo(repo, from), readCommitInfo(repo, to)]);
    return new Set((await diffTrees(repo, a.tree, b.tree)).map((c) => c.path));
  } catch {
    return undefined;
  }
}

/**
 * The Eviction-Check of a render's output: the earliest grace end among the evicting templates' tasks. `assessed`
 * holds what this render decided for the templates it placed (their earliest end, null for none); a template it did
 * not place keeps the tasks the last render left, whose earliest end is at least the last Eviction-Check (`previous`,
 * undefined when unknown). Undefined when there is nothing to record, or when it cannot be known.
 */
export function evictionCheckAfter(
  evicting: readonly string[],
  assessed: ReadonlyMap<string, number | null>,
  previous: number | undefined,
): string | undefined {
  if (evicting.length === 0) return undefined;
  let earliest = Number.POSITIVE_INFINITY;
  let unassessed = false;
  for (const key of evicting) {
    const at = assessed.get(key);
    if (at === undefined) unassessed = true;
    else if (at !== null && at < earliest) earliest = at;
  }
  if (unassessed) {
    if (previous === undefined) return undefined;
    earliest = Math.min(earliest, previous);
  }
  return earliest === Number.POSITIVE_INFINITY ? EVICTION_CHECK_NEVER : formatTime(new Date(earliest));
}
