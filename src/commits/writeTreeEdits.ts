import type { PackWriter } from './PackWriter.ts';
import { readTree } from './readTree.ts';
import { renderTree } from './renderTree.ts';
import { FILE_MODE, TREE_MODE, isTreeMode, type GitRepo, type TreeEntry } from './types.ts';

/** New content (text is written as UTF-8), a blob already added to the same pack, or null to delete. */
export type FileEdit = Uint8Array | string | PackedBlob | null;

/** A blob the caller added to the pack itself (PackWriter.add), by oid: written as it was produced. */
export interface PackedBlob {
  blob: string;
}

interface EditNode {
  files: Map<string, FileEdit>;
  dirs: Map<string, EditNode>;
}

/**
 * Applies file writes (content) and deletions (null) to `baseTree` and returns the new root
 * tree oid; new blobs and trees go into `pack`. Only the trees along edited paths are read and
 * rewritten; every other subtree keeps its oid, so cost follows the number of edits, not the
 * size of the tree. A directory left empty disappears, as git cannot store empty trees in a
 * tree; an empty root becomes the empty tree. Deleting a path that names a directory removes
 * the whole directory. A rewritten file keeps mode 100755 if it had it; new files get 100644.
 */
export async function writeTreeEdits(
  repo: GitRepo,
  pack: PackWriter,
  baseTree: string | null,
  edits: ReadonlyMap<string, FileEdit>,
): Promise<string> {
  const root = buildEditTree(edits);
  const oid = await applyEdits(repo, pack, baseTree, root);
  return oid ?? pack.add('tree', new Uint8Array(0));
}

function buildEditTree(edits: ReadonlyMap<string, FileEdit>): EditNode {
  const root: EditNode = { files: new Map(), dirs: new Map() };
  for (const [path, content] of edits) {
    const parts = path.split('/');
    for (const part of parts) {
      // fsck --strict rejects these names; '.git' in any case would also be a security hole on checkout.
      if (part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git' || part.includes('\0')) {
        throw new Error(`invalid path in tree edit: ${JSON.stringify(path)}`);
      }
    }
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      if (node.files.has(dir)) throw new Error(`tree edit conflict: ${JSON.stringify(path)} is under an edited file`);
      let next = node.dirs.get(dir);
      if (!next) node.dirs.set(dir, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    const name = parts[parts.length - 1]!;
    if (node.dirs.has(name)) throw new Error(`tree edit conflict: ${JSON.stringify(path)} also has edits below it`);
    node.files.set(name, content);
  }
  return root;
}

/** Returns the rewritten tree's oid, or null when it ends up empty. */
async function applyEdits(repo: GitRepo, pack: PackWriter, base: string | null, node: EditNode): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (base) for (const e of await readTree(repo, base, pack)) entries.set(e.name, e);
  let changed = false;

  for (const [name, content] of node.files) {
    const current = entries.get(name);
    if (content === null) {
      changed = entries.delete(name) || changed;
      continue;
    }
    // Encoded here, one file at a time: the caller need not hold a second, encoded copy of every file.
    const oid = typeof content === 'string' ? pack.add('blob', Buffer.from(content, 'utf8'))
      : content instanceof Uint8Array ? pack.add('blob', content) : content.blob;
    const mode = current?.mode === '100755' ? '100755' : FILE_MODE;
    if (current?.oid !== oid || current.mode !== mode) {
      entries.set(name, { name, mode, oid });
      changed = true;
    }
  }

  const subtrees = await Promise.all(
    [...node.dirs].map(async ([name, sub]) => {
      const current = entries.get(name);
      const subBase = current && isTreeMode(current.mode) ? current.oid : null;
      // Only deletions below a path that is a file (or absent): nothing there to delete.
      if (subBase === null && !hasWrites(sub)) return null;
      return { name, subBase, oid: await applyEdits(repo, pack, subBase, sub) };
    }),
  );
  for (const result of subtrees) {
    if (!result || result.oid === result.subBase) continue;
    changed = true;
    if (result.oid === null) entries.delete(result.name);
    else entries.set(result.name, { name: result.name, mode: TREE_MODE, oid: result.oid });
  }

  if (!changed) return base;
  if (entries.size === 0) return null;
  return pack.add('tree', renderTree([...entries.values()]));
}

function hasWrites(node: EditNode): boolean {
  for (const content of node.files.values()) if (content !== null) return true;
  for (const sub of node.dirs.values()) if (hasWrites(sub)) return true;
  return false;
}
