import os from 'node:os';
import { emptyFileObjects, type FileObjects } from '../api/model.ts';
import type { GitRepo } from '../commits/types.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import type { SourceUnit } from './detectUnits.ts';
import { MAX_UNIT_OBJECTS } from './parseUnitOutput.ts';
import { renderUnit } from './renderUnit.ts';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from './runTool.ts';

/**
 * Units rendered side by side, as many at a time as the machine has cores: marker → the unit's objects. Past
 * MAX_UNIT_OBJECTS in all (units in path order), the unit that crosses it and those after it are held.
 */
export async function renderUnits(
  repo: GitRepo,
  tree: string,
  units: readonly SourceUnit[],
  limits: ToolLimits = DEFAULT_TOOL_LIMITS,
  maxObjects = MAX_UNIT_OBJECTS,
): Promise<Map<string, FileObjects>> {
  const rendered = await mapLimit(units, os.availableParallelism(), (unit) => renderUnit(repo, tree, unit, limits));
  let objects = 0;
  let crossedAt: string | undefined;
  const bounded = [...rendered]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((f): FileObjects => {
      objects += f.templates.length;
      if (crossedAt === undefined && objects <= maxObjects) return f;
      crossedAt ??= f.file;
      return emptyFileObjects(f.file, {
        ...(f.unit ? { unit: f.unit } : {}),
        unreadable: true,
        problems: [
          {
            file: f.file,
            line: 1,
            column: 1,
            code: 'COMMIT_TOO_LARGE',
            severity: 'error',
            message:
              crossedAt === f.file
                ? `with this unit's output the units of this commit hold over ${maxObjects} objects, all one render takes: it and the units after it (in path order) are held, keeping what they rendered before`
                : `the units before this one (in path order, from ${crossedAt}) hold over ${maxObjects} objects, all one render takes: this unit is held, keeping what it rendered before`,
            fix: 'split the objects over fewer, smaller charts or kustomizations, or generate fewer',
          },
        ],
      });
    });
  return new Map(bounded.map((f) => [f.file, f]));
}
