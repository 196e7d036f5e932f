import { describeRef } from '../api/kinds.ts';
import type { GitRepo } from '../commits/types.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import type { Problem } from '../errors/problem.ts';
import type { SourceUnit, UnitLayout } from './detectUnits.ts';
import { readUnitLayoutAt } from './readUnitObjects.ts';
import { renderUnits } from './renderUnits.ts';

/** A folder rendered as a unit before a change and only read as a base after it, with the units that read it now. */
export interface UnitTakeover {
  unit: SourceUnit;
  by: SourceUnit[];
}

/**
 * The Kustomize units a change turned into bases (pure): a folder that was a unit and now is built by other units.
 * Its objects then come from the overlays naming it, patched as they like: a pull request adding an overlay over
 * another team's folder takes that folder's objects over, and it must not do so silently. A unit inside another's
 * folder that the change only ignored (.flotillaignore) or deleted is none: no build names it.
 */
export function findUnitTakeovers(before: UnitLayout, after: UnitLayout): UnitTakeover[] {
  const now = new Set(after.units.map((u) => u.marker));
  return before.units
    .filter((u) => u.tool === 'kustomize' && !now.has(u.marker))
    .map((unit) => ({ unit, by: after.units.filter((u) => u.bases?.includes(unit.dir)) }))
    .filter((t) => t.by.length > 0);
}

/** The warning plan and validate give for a takeover, at the base's kustomization, naming the templates that move (pure). */
export function takeoverProblem(t: UnitTakeover, templates: readonly string[]): Problem {
  const overlays = t.by.map((u) => u.dir).join(', ');
  const moved = templates.length > 0 ? `; the source of ${templates.join(', ')} moves to ${overlays}` : '';
  return {
    file: t.unit.marker,
    line: 1,
    column: 1,
    code: 'UNIT_BECAME_BASE',
    severity: 'warning',
    message: `${t.unit.dir} is no longer rendered as a unit: ${overlays} ${t.by.length > 1 ? 'use' : 'uses'} it as a base${moved}`,
    fix: `if ${t.unit.dir} should keep rendering its own objects, add ${t.unit.dir}/flotilla-unit.yaml (kind KustomizeUnit): an explicit unit stays one, and what it and an overlay both output is then a DUPLICATE_OBJECT; otherwise review ${overlays} as the new source of these objects`,
  };
}

/**
 * The takeovers between two trees of a repository, as warnings (I/O edge): both layouts, and the templates each folder
 * output before (from the unit output cache a render filled, else rendered as a render would).
 */
export async function readUnitTakeovers(
  repo: GitRepo,
  beforeTree: string,
  afterTree: string,
  limit: TreeWalkLimit,
): Promise<Problem[]> {
  if (beforeTree === afterTree) return [];
  const takeovers = findUnitTakeovers(
    await readUnitLayoutAt(repo, beforeTree, limit),
    await readUnitLayoutAt(repo, afterTree, limit),
  );
  if (takeovers.length === 0) return [];
  const rendered = await renderUnits(
    repo,
    beforeTree,
    takeovers.map((t) => t.unit),
  );
  return takeovers.map((t) =>
    takeoverProblem(
      t,
      (rendered.get(t.unit.marker)?.templates ?? []).map((o) =>
        describeRef({ ...o.ref, namespace: o.ref.namespace ?? '' }),
      ),
    ),
  );
}
