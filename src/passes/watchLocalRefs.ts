import path from 'node:path';
import { watch } from 'chokidar';

export interface RefWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange` when the watched branch may have moved in a local repo: its loose ref was written (git
 * renames `<ref>.lock` over it) or packed-refs was rewritten (`git pack-refs`, `git gc`, some pushes).
 * Changes to other branches, ours included, are ignored, so writing flotilla/rendered does not loop.
 */
export async function watchLocalRefs(
  gitdir: string,
  branch: string,
  onChange: (file: string) => void,
): Promise<RefWatcher> {
  const refFile = path.join(gitdir, 'refs', 'heads', ...branch.split('/'));
  const packed = path.join(gitdir, 'packed-refs');
  // Only paths that exist: with a missing one (packed-refs, in a fresh repo) chokidar reports ready before the
  // others are watched. packed-refs is seen through the git dir itself, one level deep.
  const watchers = [
    watch(path.join(gitdir, 'refs', 'heads'), { ignoreInitial: true, depth: 8 }),
    watch(gitdir, { ignoreInitial: true, depth: 0, ignored: (p) => p !== gitdir && p !== packed }),
  ];
  for (const w of watchers) {
    w.on('all', (event, file) => {
      if (event === 'addDir' || event === 'unlinkDir') return;
      if (file === refFile || file === packed) onChange(path.relative(gitdir, file));
    });
  }
  await Promise.all(
    watchers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('ready', () => resolve());
          w.once('error', reject);
        }),
    ),
  );
  return {
    close: async () => {
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
