import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { INTERPRETERS_PATH, parseInterpreterCustomizations } from '../branches/rendered/interpreterCustomizations.ts';
import type { AnyInterpreterCustomization } from '../api/interpreterCustomization.ts';
import type { Located } from '../api/model.ts';
import { ObjectNotFoundError } from '../commits/ObjectNotFoundError.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { CommitInfo } from '../commits/types.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { hasLuaCustomizations, interpreterSet, type InterpreterSet } from '../interpreters/customizations.ts';
import { loadLuaRuntime } from '../interpreters/lua/luaRuntime.ts';
import { readInterpreterCustomizations } from './karmadaFiles.ts';
import { lastGoodResolver, renderHistoryAt } from './lastGoodKarmada.ts';

/**
 * Custom kinds' hooks as of the rendered commit (its Source-Commit's customizations, as the render took them): the
 * applier's Retain and the status pass's health, reflection and aggregation. The Lua runtime is loaded when needed.
 */
export async function interpretersOfRendered(
  repo: GitRepo,
  renderedCommit: string,
): Promise<InterpreterSet | undefined> {
  // Below a hand-made commit: the last commit Flotilla wrote, and the source it rendered.
  const { rendered, source } = await readLastRenderAt(repo, renderedCommit);
  if (!rendered) return undefined;
  const text = (await readTextFiles(repo, rendered.tree, [INTERPRETERS_PATH])).get(INTERPRETERS_PATH);
  const list =
    text !== undefined
      ? parseBranchFile(renderedCommit, INTERPRETERS_PATH, () => parseInterpreterCustomizations(text)).map(
          (object) => ({
            object,
            source: { file: INTERPRETERS_PATH, line: 1, column: 1 },
          }),
        )
      : await fromSource(repo, rendered, source);
  if (hasLuaCustomizations(list)) await loadLuaRuntime();
  return list.length > 0 ? interpreterSet(list) : undefined;
}

/**
 * A render made before the rendered branch recorded its customizations: read them at its source commit, which a Pull
 * agent's mirror does not have (then none).
 */
async function fromSource(
  repo: GitRepo,
  rendered: CommitInfo,
  source: string | undefined,
): Promise<Located<AnyInterpreterCustomization>[]> {
  const index = source ? await openOutputIndex(repo, rendered.tree) : null;
  if (!source || !index) return [];
  try {
    // A customization the render held keeps the last good definition it had from the renders before it.
    const below = rendered.parents[0];
    const lastGood = lastGoodResolver(repo, async () => (below ? renderHistoryAt(repo, below) : null));
    const tree = (await readCommitInfo(repo, source)).tree;
    return await readInterpreterCustomizations(repo, tree, index, (files) => lastGood.files(files));
  } catch (err) {
    if (err instanceof ObjectNotFoundError) return [];
    throw err;
  }
}
