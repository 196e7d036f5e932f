import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
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
  const index = rendered && source ? await openOutputIndex(repo, rendered.tree) : null;
  if (!source || !index) return undefined;
  // A customization the render held keeps the last good definition it had from the renders before it.
  const below = rendered!.parents[0];
  const lastGood = lastGoodResolver(repo, async () => (below ? renderHistoryAt(repo, below) : null));
  const tree = (await readCommitInfo(repo, source)).tree;
  const list = await readInterpreterCustomizations(repo, tree, index, (files) => lastGood.files(files));
  if (hasLuaCustomizations(list)) await loadLuaRuntime();
  return list.length > 0 ? interpreterSet(list) : undefined;
}
