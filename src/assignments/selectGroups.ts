// Choosing spread groups (Karmada core/spreadconstraint/select_groups.go): a depth-first search over
// groups sorted by (value asc, weight desc, name asc) collects every path of min..max groups whose value
// reaches the target; the heaviest path wins (then the larger value, then the earliest found), and the
// winner gives way to any lower-ranked path that is a strict prefix of it.
//
// That search is exponential: Karmada bounds it only by maxGroups (no deeper than maxGroups groups), so a
// region spread over 28 regions of one cluster each, maxGroups 28 and a cluster minGroups of 14 records
// C(28,14) = 40 million paths. Flotilla runs the same search, step for step, up to MAX_GROUP_SEARCH_STEPS
// and refuses a larger one rather than let one policy exhaust the scheduler.

export interface GroupInfo {
  name: string;
  /** How many clusters the group holds. */
  value: number;
  /** The group's score. */
  weight: number;
}

interface FoundPath {
  id: number;
  groups: GroupInfo[];
  weight: number;
  value: number;
}

/**
 * Steps (groups tried) the search may take. Every spread Karmada's own tests use takes under 100; 28 regions
 * with maxGroups 3 take about 4,000; 200,000 steps take about 0.3 s on a busy two-core machine.
 */
export const MAX_GROUP_SEARCH_STEPS = 200_000;

/**
 * The chosen groups ([] when no combination qualifies), or undefined when the search would take more than
 * `maxSteps` steps: the caller reports that the spread is too large to search.
 */
export function selectGroups(
  groups: GroupInfo[],
  minGroups: number,
  maxGroups: number,
  target: number,
  maxSteps = MAX_GROUP_SEARCH_STEPS,
): GroupInfo[] | undefined {
  return searchGroups(groups, minGroups, maxGroups, target, maxSteps).chosen;
}

/**
 * selectGroups with the steps the search took, those after the budget ran out included: what a refusal cost, which
 * a test can bound without a clock.
 */
export function searchGroups(
  groups: GroupInfo[],
  minGroups: number,
  maxGroups: number,
  target: number,
  maxSteps = MAX_GROUP_SEARCH_STEPS,
): { chosen: GroupInfo[] | undefined; steps: number } {
  if (groups.length === 0) return { chosen: [], steps: 0 };
  const { paths, steps } = findFeasiblePaths(groups, minGroups, maxGroups, target, maxSteps);
  if (!paths) return { chosen: undefined, steps };
  return { chosen: paths.length === 0 ? [] : prioritizePaths(paths).groups, steps };
}

function findFeasiblePaths(
  input: GroupInfo[],
  minGroups: number,
  maxGroups: number,
  target: number,
  maxSteps: number,
): { paths: FoundPath[] | undefined; steps: number } {
  const groups = [...input].sort((a, b) => a.value - b.value || b.weight - a.weight || compareNames(a.name, b.name));
  const paths: FoundPath[] = [];
  const current: GroupInfo[] = [];
  let nextId = 0;
  let steps = 0;
  const visit = (sum: number, begin: number): void => {
    if (++steps > maxSteps) return;
    if (sum >= target && current.length >= minGroups && current.length <= maxGroups) {
      nextId++;
      const found = [...current].sort((a, b) => b.weight - a.weight || compareNames(a.name, b.name));
      paths.push({
        id: nextId,
        groups: found,
        weight: found.reduce((s, g) => s + g.weight, 0),
        value: found.reduce((s, g) => s + g.value, 0),
      });
      return;
    }
    if (current.length >= maxGroups) return;
    for (let i = begin; i < groups.length; i++) {
      const group = groups[i] as GroupInfo;
      sum += group.value;
      current.push(group);
      visit(sum, i + 1);
      // Karmada quirk kept: with exactly minGroups groups the search stops after the first branch
      // and leaves the path as it is.
      if (groups.length === minGroups) break;
      sum -= group.value;
      current.pop();
    }
  };
  visit(0, 0);
  return { paths: steps > maxSteps ? undefined : paths, steps };
}

function prioritizePaths(paths: FoundPath[]): FoundPath {
  if (paths.length === 1) return paths[0] as FoundPath;
  const sorted = [...paths].sort((a, b) => b.weight - a.weight || b.value - a.value || a.id - b.id);
  let chosen = sorted[0] as FoundPath;
  for (const path of sorted.slice(1)) {
    if (isStrictPrefix(path, chosen)) chosen = path;
  }
  return chosen;
}

/** Karmada's matchSubPath: `sub` has fewer groups than `path` and starts it. */
function isStrictPrefix(sub: FoundPath, path: FoundPath): boolean {
  if (sub.groups.length >= path.groups.length) return false;
  return sub.groups.every((g, i) => path.groups[i]?.name === g.name);
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
