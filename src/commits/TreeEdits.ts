/**
 * A folder of a TreeEdits: the files edited in it by name, and its subfolders. Folders that hold no file (or no
 * subfolder) share one empty map until they get one: most folders of a render hold files only.
 */
export interface EditFolder<V> {
  readonly files: ReadonlyMap<string, V>;
  readonly dirs: ReadonlyMap<string, EditFolder<V>>;
}

interface Folder<V> extends EditFolder<V> {
  files: Map<string, V>;
  dirs: Map<string, Folder<V>>;
  /** Its path from the root ('' for the root), made when asked: a fleet's worth of folder paths is not kept. */
  readonly parent: Folder<V> | null;
  readonly name: string;
}

/**
 * Edits by path, a Map in everything a caller sees (insertion order included), kept as the folders the paths go in.
 * A render writes millions of files into a few hundred thousand folders; as a flat map each file costs its whole path
 * (~60 characters), and the tree write then built this same layout beside it, both whole at the render's peak of
 * memory (docs/SCALE.md, thirty-second round). Here a file costs one entry in its folder's map, its name shared
 * with every file of that name, and the tree write takes the folders as they are (writeTreeEdits). Paths are not
 * checked here; writeTreeEdits refuses the names git cannot store, and a name that is both a file and a folder.
 */
export class TreeEdits<V> implements Map<string, V> {
  #root: Folder<V> = newFolder(null, '');
  #size = 0;
  /**
   * Insertion order: folder, name, folder, name, ... in blocks, so no step copies millions of slots. A deleted entry
   * leaves two nulls, which iteration passes over.
   */
  #order: (Folder<V> | string | null)[][] = [];
  /** One copy of each distinct name: a slice of a path would keep the whole path alive. */
  #names = new Map<string, string>();

  /** The top folder, for writeTreeEdits: what the edits make of the tree, folder by folder. */
  get root(): EditFolder<V> {
    return this.#root;
  }

  get size(): number {
    return this.#size;
  }

  get [Symbol.toStringTag](): string {
    return 'TreeEdits';
  }

  set(path: string, value: V): this {
    const { folder, name } = this.#place(path, true)!;
    if (!folder.files.has(name)) {
      if (folder.files === NO_FILES) folder.files = new Map();
      let block = this.#order.at(-1);
      if (!block || block.length >= ORDER_BLOCK) this.#order.push((block = []));
      block.push(folder, name);
      this.#size++;
    }
    folder.files.set(name, value);
    return this;
  }

  get(path: string): V | undefined {
    const place = this.#place(path, false);
    return place?.folder.files.get(place.name);
  }

  has(path: string): boolean {
    const place = this.#place(path, false);
    return place !== undefined && place.folder.files.has(place.name);
  }

  delete(path: string): boolean {
    const place = this.#place(path, false);
    if (!place?.folder.files.delete(place.name)) return false;
    this.#size--;
    // A folder left with nothing in it goes, as it would not exist in a Map: `a` may then be set as a file.
    for (let folder = place.folder; folder.parent && folder.files.size === 0 && folder.dirs.size === 0; ) {
      folder.parent.dirs.delete(folder.name);
      folder = folder.parent;
    }
    // Rare (a render only sets): its place in the order is found by a walk, and left empty.
    for (const block of this.#order)
      for (let i = 0; i < block.length; i += 2)
        if (block[i] === place.folder && block[i + 1] === place.name) {
          block[i] = block[i + 1] = null;
          return true;
        }
    return true;
  }

  clear(): void {
    // A new root, not the old one emptied: a tree write may still be reading the folders it was handed. The old
    // blocks are emptied, so an iteration under way ends, as a Map's does.
    for (const block of this.#order) block.length = 0;
    this.#root = newFolder(null, '');
    this.#size = 0;
    this.#order = [];
    this.#names = new Map();
  }

  *entries(): MapIterator<[string, V]> {
    let order = this.#order;
    let folder: Folder<V> | undefined;
    let prefix = '';
    for (let b = 0, i = 0; ; i += 2) {
      // Cleared meanwhile: what is set after it comes next, as in a Map.
      if (order !== this.#order) [order, b, i] = [this.#order, 0, 0];
      let block = order[b];
      while (block && i >= block.length && b + 1 < order.length) [block, i] = [order[++b], 0];
      if (!block || i >= block.length) return;
      const at = block[i];
      const name = block[i + 1] as string;
      if (!at || typeof at === 'string') continue; // deleted
      if (at !== folder) prefix = folderPath((folder = at));
      yield [at.parent === null ? name : `${prefix}/${name}`, at.files.get(name) as V];
    }
  }

  *keys(): MapIterator<string> {
    for (const [path] of this.entries()) yield path;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    for (const [path, value] of this.entries()) callback.call(thisArg, value, path, this);
  }

  /** The folder `path` goes in (made when `make`) and its file name; undefined when absent and not made. */
  #place(path: string, make: boolean): { folder: Folder<V>; name: string } | undefined {
    let folder = this.#root;
    let start = 0;
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', (start = slash + 1))) {
      const dir = path.slice(start, slash);
      let next = folder.dirs.get(dir);
      if (!next) {
        if (!make) return undefined;
        if (folder.dirs === NO_DIRS) folder.dirs = new Map();
        const name = this.#name(dir);
        folder.dirs.set(name, (next = newFolder(folder, name)));
      }
      folder = next;
    }
    const sliced = path.slice(start);
    return { folder, name: make ? this.#name(sliced) : sliced };
  }

  #name(sliced: string): string {
    const known = this.#names.get(sliced);
    if (known !== undefined) return known;
    // A copy of its own, not a slice of the path it came in. Through UTF-8 (one byte a character for most names), or
    // UTF-16 for a name with a surrogate, which a lone one would not survive in UTF-8.
    const name =
      sliced.length < FLAT_BELOW
        ? sliced
        : SURROGATE.test(sliced)
          ? Buffer.from(sliced, 'utf16le').toString('utf16le')
          : Buffer.from(sliced, 'utf8').toString('utf8');
    this.#names.set(name, name);
    return name;
  }
}

/** Slots per block of the order: 8,192 entries. */
const ORDER_BLOCK = 16_384;
/** V8 copies a slice shorter than this (SlicedString::kMinLength) instead of pointing into the string it came from. */
const FLAT_BELOW = 13;

const SURROGATE = /[\uD800-\uDFFF]/;

const NO_FILES: Map<string, never> = new Map<string, never>();
const NO_DIRS: Map<string, never> = new Map<string, never>();

function newFolder<V>(parent: Folder<V> | null, name: string): Folder<V> {
  return { files: NO_FILES, dirs: NO_DIRS, parent, name };
}

/** The folder's path ('' for the root; a folder named '' under the root is '' too, told apart by its parent). */
function folderPath<V>(folder: Folder<V>): string {
  return folder.parent === null
    ? ''
    : folder.parent.parent === null
      ? folder.name
      : `${folderPath(folder.parent)}/${folder.name}`;
}
