import os from 'node:os';
import type { FileObjects } from '../api/model.ts';
import type { GitRepo } from '../commits/types.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import type { SourceUnit } from './detectUnits.ts';
import { renderUnit } from './renderUnit.ts';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from './runTool.ts';

/** Units rendered side by side, as many at a time as the machine has cores: marker → the unit's objects. */
export async function renderUnits(
  repo: GitRepo,
  tree: string,
  units: readonly SourceUnit[],
  limits: ToolLimits = DEFAULT_TOOL_LIMITS,
): Promise<Map<string, FileObjects>> {
  const rendered = await mapLimit(units, os.availableParallelism(), (unit) => renderUnit(repo, tree, unit, limits));
  return new Map(rendered.map((f) => [f.file, f]));
}
