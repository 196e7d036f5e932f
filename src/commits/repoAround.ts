import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository a command run without --repo works on, found as git finds it: the folder itself when it is a
 * repository (a work tree, or a bare one), else the nearest folder above holding `.git` (a command run from a work
 * tree's subfolder). The folder itself when none is found, so the error names where the command ran.
 */
export function repoAround(folder: string): string {
  const start = path.resolve(folder);
  if (['HEAD', 'objects', 'refs'].every((name) => existsSync(path.join(start, name)))) return start;
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}
