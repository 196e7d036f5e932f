import { eventLoopTurns, SLICE_MS, type EventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import type { PackWriter } from './PackWriter.ts';
import { findTreeEntries, parseTree, type FoundEntry } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { renderTree } from './renderTree.ts';
import { TreeEdits, type EditFolder } from './TreeEdits.ts';
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

/**
 * Applies file writes (content) and deletions (null) to `baseTree` and returns the new root
 * tree oid; new blobs and trees go into `pack`. Only the trees along edited paths are read and
 * rewritten; every other subtree keeps its oid, so cost follows the number of edits, not the
 * size of the tree. A directory left empty disappears, as git cannot store empty trees in a
 * tree; an empty root becomes the empty tree. Deleting a path that names a directory removes
 * the whole directory. A rewritten file keeps mode 100755 if it had it; new files get 100644.
 * Edits kept as a TreeEdits are written folder by folder as they are (so they must not change until this returns);
 * a plain map is laid out so first. With
 * `consume`, the caller hands `edits` over and it is emptied once read: a cold render's millions of entries need
 * not stay beside the tree they were turned into.
 */
export async function writeTreeEdits(
  repo: GitRepo,
  pack: PackWriter,
  baseTree: string | null,
  edits: ReadonlyMap<string, FileEdit> | TreeEdits<FileEdit>,
  opts: { consume?: boolean } = {},
): Promise<string> {
  // Millions of edits and thousands of folders on a cold render: the event loop gets a turn now and then.
  const turns = eventLoopTurns(SLICE_MS, { clockEvery: 1024 });
  const root = (edits instanceof TreeEdits ? edits : await treeEditsOf(edits, turns)).root;
  await checkNames(root, turns);
  if (opts.consume && (edits instanceof Map || edits instanceof TreeEdits)) edits.clear();
  await pack.settle(); // blobs added by entry (addBlob) get their ids with their compression, on another thread
  const oid = await applyEdits(repo, pack, baseTree, root, eventLoopTurns());
  return oid ?? pack.add('tree', new Uint8Array(0));
}

type EditNode = EditFolder<FileEdit>;

async function treeEditsOf(edits: ReadonlyMap<string, FileEdit>, turns: EventLoopTurns): Promise<TreeEdits<FileEdit>> {
  const tree = new TreeEdits<FileEdit>();
  for (const [path, content] of edits) {
    if (turns.due()) await turns.give();
    tree.set(path, content);
  }
  return tree;
}

/**
 * Refuses a name git cannot store, and a name that is both a file and a folder with edits below it, before anything
 * is written. The walk is a stack, not a call per folder: a cold render's tree has hundreds of thousands.
 */
async function checkNames(root: EditNode, turns: EventLoopTurns): Promise<void> {
  const stack: [EditNode, string][] = [[root, '']];
  const at = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (turns.due()) await turns.give();
    const [node, path] = next;
    for (const name of node.files.keys()) {
      if (!storable(name)) throw invalidPath(at(path, name));
      if (node.dirs.has(name))
        throw new Error(`tree edit conflict: ${JSON.stringify(at(path, name))} is a file with edits below it`);
    }
    for (const [name, sub] of node.dirs) {
      if (!storable(name)) throw invalidPath(at(path, name));
      stack.push([sub, at(path, name)]);
    }
  }
}

/** fsck --strict rejects these names; '.git' in any case would also be a security hole on checkout. */
function storable(part: string): boolean {
  return (
    part !== '' &&
    part !== '.' &&
    part !== '..' &&
    !(part.length === 4 && part.toLowerCase() === '.git') &&
    !part.includes('\0')
  );
}

function invalidPath(path: string): Error {
  return new Error(`invalid path in tree edit: ${JSON.stringify(path)}`);
}

/** Returns the rewritten tree's oid, or null when it ends up empty. */
async function applyEdits(
  repo: GitRepo,
  pack: PackWriter,
  base: string | null,
  node: EditNode,
  turns: EventLoopTurns,
): Promise<string | null> {
  if (turns.due()) await turns.give();
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
    // Encoded here, one file at a time: the caller need not hold a second, encoded copy of every file. Hashing a text
    // is the costly case (the index's 256 shards, some MB each at 50,000 templates, are one folder): a turn when due.
    if (typeof content !== 'number' && turns.due()) await turns.give();
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
    const oid = await applyEdits(repo, pack, subBase, sub, turns);
    if (oid === subBase) continue;
    updates.set(name, oid === null ? null : { name, mode: TREE_MODE, oid });
  }

  if (updates.size === 0) return base;
  const patched = current.inOrder ? spliceTree(raw, current.entries, updates) : null;
  if (patched) return patched.length === 0 ? null : pack.add('tree', patched);
  const entries = new Map<string, TreeEntry>(parseTree(raw).map((e) => [e.name, e]));
  for (const [name, entry] of updates) {
    if (entry) entries.set(name, entry);
    else entries.delete(name);
  }
  if (entries.size === 0) return null;
  return pack.add('tree', renderTree([...entries.values()]));
}

/**
 * The tree body after the updates, made from the body read (in git's order, no name twice: what renderTree makes of
 * its entries), so the bytes are renderTree's without encoding every entry again. A folder of a render lists tens to
 * hundreds of entries and an edit touches a few: the entries between them are copied in runs. When every update keeps
 * an existing entry's name and mode (a file or folder below changed), only oids are replaced.
 */
function spliceTree(
  raw: Uint8Array,
  found: ReadonlyMap<string, FoundEntry>,
  updates: ReadonlyMap<string, TreeEntry | null>,
): Uint8Array {
  let sameShape = true;
  for (const [name, entry] of updates) if (!entry || found.get(name)?.mode !== entry.mode) sameShape = false;
  if (sameShape) {
    const out = Buffer.from(raw);
    for (const [name, entry] of updates) out.write(entry!.oid, found.get(name)!.oidAt, 'hex');
    return out;
  }
  const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  // Where each existing entry that changes lies, and what comes in its place: the same entry with another oid or
  // mode when it keeps its place in the order, nothing when it goes or moves (a file becoming a folder sorts as
  // `name/`), the moved and the new entries being inserted where the order puts them.
  const replaced: { start: number; end: number; with: TreeEntry | null }[] = [];
  const inserted: { key: string; entry: TreeEntry }[] = [];
  for (const [name, entry] of updates) {
    const was = found.get(name);
    const keepsPlace = was !== undefined && entry !== null && isTreeMode(was.mode) === isTreeMode(entry.mode);
    if (was) replaced.push({ start: was.start, end: was.oidAt + 20, with: keepsPlace ? entry : null });
    if (entry && !keepsPlace) inserted.push({ key: orderKey(entry), entry });
  }
  replaced.sort((a, b) => a.start - b.start);
  inserted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // Each insertion's offset: before the first entry of the body that sorts after it (bytes, as latin1 chars).
  const at: number[] = [];
  if (inserted.length > 0) {
    const text = body.toString('latin1');
    let next = 0;
    for (let pos = 0; pos < text.length && next < inserted.length; ) {
      const space = text.indexOf(' ', pos);
      const nul = text.indexOf('\0', space + 1);
      const name = text.slice(space + 1, nul);
      const key = isTreeMode(text.slice(pos, space)) ? `${name}/` : name;
      while (next < inserted.length && inserted[next]!.key < key) at[next++] = pos;
      pos = nul + 21;
    }
    while (at.length < inserted.length) at.push(body.length);
  }
  const parts: Uint8Array[] = [];
  let copied = 0;
  let i = 0;
  let r = 0;
  for (;;) {
    const insertAt = i < inserted.length ? at[i]! : Number.POSITIVE_INFINITY;
    const replaceAt = r < replaced.length ? replaced[r]!.start : Number.POSITIVE_INFINITY;
    if (insertAt === Number.POSITIVE_INFINITY && replaceAt === Number.POSITIVE_INFINITY) break;
    if (insertAt <= replaceAt) {
      parts.push(body.subarray(copied, insertAt), entryBytes(inserted[i++]!.entry));
      copied = insertAt;
    } else {
      const { start, end, with: entry } = replaced[r++]!;
      parts.push(body.subarray(copied, start));
      if (entry) parts.push(entryBytes(entry));
      copied = end;
    }
  }
  parts.push(body.subarray(copied));
  return Buffer.concat(parts);
}

/** An entry's place in git's order, spelled as the body's names are read (UTF-8 bytes as latin1 chars). */
function orderKey(entry: TreeEntry): string {
  const name = NOT_ASCII.test(entry.name) ? Buffer.from(entry.name, 'utf8').toString('latin1') : entry.name;
  return isTreeMode(entry.mode) ? `${name}/` : name;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: \x00-\x7f spells all of ASCII; the class is its complement
const NOT_ASCII = /[^\x00-\x7f]/;

function entryBytes(entry: TreeEntry): Buffer {
  const head = Buffer.from(`${entry.mode} ${entry.name}\0`, 'utf8');
  const out = Buffer.allocUnsafe(head.length + 20);
  head.copy(out);
  out.write(entry.oid, head.length, 'hex');
  return out;
}

function hasWrites(node: EditNode): boolean {
  for (const content of node.files.values()) if (content !== null) return true;
  for (const sub of node.dirs.values()) if (hasWrites(sub)) return true;
  return false;
}
