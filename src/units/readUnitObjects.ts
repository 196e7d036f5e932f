import type { FileObjects } from '../api/model.ts';
import type { UnitLayout } from './detectUnits.ts';
import type { GitRepo } from '../commits/types.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import { readIgnoreRules } from '../documents/readIgnoreRules.ts';
import { readUnitLayout } from './readUnitLayout.ts';
import { renderUnits } from './renderUnits.ts';

/**
 * The objects the Helm and Kustomize units with these marker files output at a commit, by marker: what `get`,
 * `describe` and the dashboard show for a template a unit produced, since the marker file (the index's source file)
 * does not hold it. Read from the output cache when a render put it there, else rendered as a render would.
 */
export async function readUnitObjects(
  repo: GitRepo,
  tree: string,
  markers: readonly string[],
  limit: TreeWalkLimit,
): Promise<Map<string, FileObjects>> {
  const wanted = new Set(markers);
  if (wanted.size === 0) return new Map();
  const layout = await readUnitLayoutAt(repo, tree, limit);
  return renderUnits(
    repo,
    tree,
    layout.units.filter((u) => wanted.has(u.marker)),
  );
}

/** The units of a tree with its own ignore rules, as a render reads them (TreeTooLargeError past `limit`). */
export async function readUnitLayoutAt(repo: GitRepo, tree: string, limit: TreeWalkLimit): Promise<UnitLayout> {
  return readUnitLayout(repo, tree, (await readIgnoreRules(repo, tree)).rules, limit);
}
