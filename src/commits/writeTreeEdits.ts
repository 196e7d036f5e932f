import type { PackWriter } from './PackWriter.ts';
import { findTreeEntries, parseTree, type FoundEntry } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { renderTree } from './renderTree.ts';
import { FILE_MODE, TREE_MODE, isTreeMode, type GitRepo, type TreeEntry } from './types.ts';

/**
 * New content (text is written as UTF-8), a blob already added to the same pack (by oid, or as the entry number
 * PackWriter.addBlob returned), or null to delete.
 */
export type FileEdit = Uint8Array | string | PackedBlob | number | null;

/** A blob the caller added to the pack itself (PackWriter.add), by oid: written as it was produced. */
export interface PackedBlob {
  blob: string;
}

interface EditNode {
  files: Map<string, FileEdit>;
  /** Shared and empty until the folder gets a subfolder: most folders of a render hold files only. */
  dirs: ReadonlyMap<string, EditNode> | Map<string, EditNode>;
}

/**
 * Applies file writes (content) and deletions (null) to `baseTree` and returns the new root
 * tree oid; new blobs and trees go into `pack`. Only the trees along edited paths are read and
 * rewritten; every other subtree keeps its oid, so cost follows the number of edits, not the
 * size of the tree. A directory left empty disappears, as git cannot store empty trees in a
 * tree; an empty root becomes the empty tree. Deleting a path that names a directory removes
 * the whole directory. A rewritten file keeps mode 100755 if it had it; new files get 100644.
 * With `consume`, the caller hands `edits` over and it is cleared once read: a cold render's millions of entries need
 * not stay beside the tree they were turned into.
 */
export async function writeTreeEdits(
  repo: GitRepo,
  pack: PackWriter,
  baseTree: string | null,
  edits: ReadonlyMap<string, FileEdit>,
  opts: { consume?: boolean } = {},
): Promise<string> {
  const root = buildEditTree(edits);
  if (opts.consume && edits instanceof Map) edits.clear();
  await pack.settle(); // blobs added by entry (addBlob) get their ids with their compression, on another thread
  const oid = await applyEdits(repo, pack, baseTree, root);
  return oid ?? pack.add('tree', new Uint8Array(0));
}

/**
 * The edits as a tree of folders. A render writes millions of files into some thousands of folders: each folder is
 * walked and checked once, and a file costs one entry in its folder (its name a slice of the path), not a split of
 * its whole path.
 */
function buildEditTree(edits: ReadonlyMap<string, FileEdit>): EditNode {
  const root: EditNode = { files: new Map(), dirs: NO_DIRS };
  const folders = new Map<string, EditNode>();
  for (const [path, content] of edits) {
    const slash = path.lastIndexOf('/');
    let node = root;
    if (slash >= 0) {
      const folder = path.slice(0, slash);
      const known = folders.get(folder);
      if (known) node = known;
      else folders.set(folder, (node = folderNode(root, folder, path)));
    }
    const name = path.slice(slash + 1);
    checkPart(name, path);
    if (node.dirs.has(name)) throw new Error(`tree edit conflict: ${JSON.stringify(path)} also has edits below it`);
    node.files.set(name, content);
  }
  return root;
}

/** The node of `folder` (made as needed), for the first edit below it. */
function folderNode(root: EditNode, folder: string, path: string): EditNode {
  let node = root;
  for (const dir of folder.split('/')) {
    checkPart(dir, path);
    if (node.files.has(dir)) throw new Error(`tree edit conflict: ${JSON.stringify(path)} is under an edited file`);
    let next = node.dirs.get(dir);
    if (!next) {
      const dirs = node.dirs === NO_DIRS ? new Map<string, EditNode>() : (node.dirs as Map<string, EditNode>);
      dirs.set(dir, (next = { files: new Map(), dirs: NO_DIRS }));
      node.dirs = dirs;
    }
    node = next;
  }
  return node;
}

const NO_DIRS: ReadonlyMap<string, EditNode> = new Map();

function checkPart(part: string, path: string): void {
  // fsck --strict rejects these names; '.git' in any case would also be a security hole on checkout.
  if (part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git' || part.includes('\0'))
    throw new Error(`invalid path in tree edit: ${JSON.stringify(path)}`);
}

/** Returns the rewritten tree's oid, or null when it ends up empty. */
async function applyEdits(
  repo: GitRepo,
  pack: PackWriter,
  base: string | null,
  node: EditNode,
): Promise<string | null> {
  const raw = base ? readTreeBytes(repo, base, pack) : new Uint8Array(0);
  const current = findTreeEntries(raw, new Set([...node.files.keys(), ...node.dirs.keys()]), true);
  /** name → its entry after the edits, or null when it goes. */
  const updates = new Map<string, TreeEntry | null>();

  for (const [name, content] of node.files) {
    const entry = current.entries.get(name);
    if (content === null) {
      if (entry) updates.set(name, null);
      continue;
    }
    // Encoded here, one file at a time: the caller need not hold a second, encoded copy of every file.
    const oid =
      typeof content === 'string'
        ? pack.add('blob', Buffer.from(content, 'utf8'))
        : typeof content === 'number'
          ? pack.oidOf(content)
          : content instanceof Uint8Array
            ? pack.add('blob', content)
            : content.blob;
    const mode = entry?.mode === '100755' ? '100755' : FILE_MODE;
    if (entry?.oid !== oid || entry.mode !== mode) updates.set(name, { name, mode, oid });
  }

  // One folder after the other: reads are synchronous, so nothing is gained by starting them together, and each
  // folder's new entries (millions, on a cold render of a large fleet) would all be held at once.
  for (const [name, sub] of node.dirs) {
    const entry = current.entries.get(name);
    const subBase = entry && isTreeMode(entry.mode) ? entry.oid : null;
    // Only deletions below a path that is a file (or absent): nothing there to delete.
    if (subBase === null && !hasWrites(sub)) continue;
    const oid = await applyEdits(repo, pack, subBase, sub);
    if (oid === subBase) continue;
    updates.set(name, oid === null ? null : { name, mode: TREE_MODE, oid });
  }

  if (updates.size === 0) return base;
  const patched = current.inOrder ? patchOids(raw, current.entries, updates) : null;
  if (patched) return pack.add('tree', patched);
  const entries = new Map<string, TreeEntry>(parseTree(raw).map((e) => [e.name, e]));
  for (const [name, entry] of updates) {
    if (entry) entries.set(name, entry);
    else entries.delete(name);
  }
  if (entries.size === 0) return null;
  return pack.add('tree', renderTree([...entries.values()]));
}

/**
 * The tree body with only oids replaced, when every update keeps an existing entry's name and mode (the usual edit:
 * a file or folder below changed): the order is unchanged, so the bytes are renderTree's. null when an entry comes,
 * goes or changes mode.
 */
function patchOids(
  raw: Uint8Array,
  found: ReadonlyMap<string, FoundEntry>,
  updates: ReadonlyMap<string, TreeEntry | null>,
): Uint8Array | null {
  for (const [name, entry] of updates) if (!entry || found.get(name)?.mode !== entry.mode) return null;
  const out = Buffer.from(raw);
  for (const [name, entry] of updates) out.write(entry!.oid, found.get(name)!.oidAt, 'hex');
  return out;
}

function hasWrites(node: EditNode): boolean {
  for (const content of node.files.values()) if (content !== null) return true;
  for (const sub of node.dirs.values()) if (hasWrites(sub)) return true;
  return false;
}
