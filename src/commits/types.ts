// Shared vocabulary of the Git object layer. Oids are 40-char lowercase hex SHA-1 strings.
import type * as nodeFs from 'node:fs';

/** An opened repository; pass it to every function in src/commits. */
export interface GitRepo {
  /** Work tree for a non-bare repo; for a bare repo the same as `gitdir`. */
  dir: string;
  /** The directory holding HEAD, objects/ and refs/. */
  gitdir: string;
  bare: boolean;
  /** Injected so tests can wrap it; node's fs in production. */
  fs: typeof nodeFs;
  /**
   * Per-repo state of the readers: readObject's pack indexes and delta bases, and isomorphic-git's
   * own cache for the few calls still made through it (abbreviated shas). Packs written later, by
   * us or another process, are found by listing the pack folder again on a miss.
   */
  cache: object;
}

export type ObjectType = 'blob' | 'tree' | 'commit';

/** One raw tree entry. `mode` is spelled as git stores it: '100644', '100755', '120000', '40000', '160000'. */
export interface TreeEntry {
  name: string;
  mode: string;
  oid: string;
  /**
   * Set when the name's bytes are not UTF-8 (a name git stores as given, from a Latin-1 file system): `name` is then
   * lossy, two such names can read alike, so readers pass the entry over; this is how a message shows it, each byte
   * that is not UTF-8 as `\xHH`.
   */
  notUtf8?: string;
}

/** A blob reachable from a tree, keyed elsewhere by its '/'-joined path. */
export interface TreeFile {
  oid: string;
  mode: string;
}

/** One blob that differs between two trees: added (no oldOid), deleted (no newOid) or modified. */
export interface TreeChange {
  path: string;
  oldOid?: string;
  newOid?: string;
  oldMode?: string;
  newMode?: string;
}

/** Author or committer. Same convention as isomorphic-git. */
export interface GitIdentity {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes, sign as in JS Date#getTimezoneOffset: UTC+02:00 is -120. */
  timezoneOffset: number;
}

/**
 * The identity Flotilla commits as (output, status and inventory commits, rebalancers): at `time`, or at a source
 * commit's own timestamp and zone, so an output commit's id follows from its source.
 */
export function flotillaIdentity(time: Date | Pick<GitIdentity, 'timestamp' | 'timezoneOffset'>): GitIdentity {
  const when =
    time instanceof Date
      ? { timestamp: Math.floor(time.getTime() / 1000), timezoneOffset: 0 }
      : { timestamp: time.timestamp, timezoneOffset: time.timezoneOffset };
  return { name: 'Flotilla', email: 'flotilla@localhost', ...when };
}

export interface CommitInfo {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const TREE_MODE = '40000';
export const FILE_MODE = '100644';

/** Git writes '40000'; some old tools wrote '040000'. Both mean a subtree. */
export function isTreeMode(mode: string): boolean {
  return mode === '40000' || mode === '040000';
}

/** Gitlinks (160000, submodule commits) and subtrees are not blobs. */
export function isBlobMode(mode: string): boolean {
  return mode.startsWith('10') || mode === '120000';
}
