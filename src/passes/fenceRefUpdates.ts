import nodeFs from 'node:fs';
import path from 'node:path';

/** A branch moved by a replica that no longer may: its Lease lapsed (the rendered branch: it no longer leads). */
export class FencedRefError extends Error {
  readonly code = 'FENCED' as const;
  constructor(ref: string) {
    super(`not moving ${ref}: this replica no longer holds the Lease that lets it write there (fenced)`);
    this.name = 'FencedRefError';
  }
}

/**
 * node's fs, except that moving one of `refs` (git's rename of `<ref>.lock` over the ref: the moment a commit lands)
 * is refused while its check says no. The last local check before the compare-and-swap itself: a replica whose
 * Lease lapsed during a long render or apply stops there, its objects written and the branch unmoved; updateRef
 * removes its lock and the pass fails.
 */
export function fenceRefUpdates(
  refs: Readonly<Record<string, () => boolean>>,
  fs: typeof nodeFs = nodeFs,
): typeof nodeFs {
  const entries = Object.entries(refs);
  const rename = (async (from: nodeFs.PathLike, to: nodeFs.PathLike) => {
    const target = path.resolve(String(to));
    const fenced = entries.find(
      ([ref, may]) => target.endsWith(`${path.sep}${ref.split('/').join(path.sep)}`) && !may(),
    );
    if (fenced && String(from).endsWith('.lock')) throw new FencedRefError(fenced[0]);
    return fs.promises.rename(from, to);
  }) as typeof nodeFs.promises.rename;
  return { ...fs, promises: { ...fs.promises, rename } } as typeof nodeFs;
}
