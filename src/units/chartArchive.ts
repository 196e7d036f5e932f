import { gunzipSync } from 'node:zlib';

/** A packed chart past this size unpacked is not read (its templates are not looked into). */
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
/** The packed charts one archive may hold at every depth, itself included, before the rest goes unread. */
const MAX_ARCHIVES = 64;

/** An archive's entries, or why they could not all be read. */
export type ChartArchiveRead =
  | { entries: Map<string, Uint8Array> }
  | { problem: 'unreadable' | 'too-large' | 'too-many' };

/**
 * What is left to unpack of one archive and the archives packed inside it, together: each is a pull request's bytes,
 * and nesting multiplies them (a 2 MiB archive of archives of archives can hold half a million), so the whole tree
 * gets the one archive's 32 MiB and at most 64 archives.
 */
export interface UnpackBudget {
  bytes: number;
  archives: number;
  /** Set once an archive was refused for the budget: nothing more of the tree is read. */
  spent?: true;
}

export const unpackBudget = (): UnpackBudget => ({ bytes: MAX_UNPACKED_BYTES, archives: MAX_ARCHIVES });

/**
 * The text files of a packed chart (`charts/<name>-<version>.tgz`, as `helm dependency build` vendors it), by their
 * path inside the chart: the archive's first folder (the chart's name) is taken off, so a template is
 * `templates/_helpers.tpl` as in an unpacked chart (pure). An archive that does not unpack, or unpacks past the cap,
 * gives nothing.
 */
export function chartArchiveFiles(tgz: Uint8Array): Map<string, string> {
  const read = chartArchiveEntries(tgz);
  const decoder = new TextDecoder();
  return 'entries' in read ? new Map([...read.entries].map(([p, b]) => [p, decoder.decode(b)])) : new Map();
}

/**
 * chartArchiveFiles as bytes (a packed chart holds packed subcharts), saying when the archive could not be read whole;
 * what it unpacks is taken from `budget`, which the archives packed inside it share.
 */
export function chartArchiveEntries(tgz: Uint8Array, budget: UnpackBudget = unpackBudget()): ChartArchiveRead {
  const out = new Map<string, Uint8Array>();
  if (budget.archives <= 0) {
    budget.spent = true;
    return { problem: 'too-many' };
  }
  budget.archives--;
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz, { maxOutputLength: Math.max(1, budget.bytes) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') return { problem: 'unreadable' };
    budget.spent = true;
    return { problem: 'too-large' };
  }
  budget.bytes -= tar.length;
  const decoder = new TextDecoder();
  const field = (at: number, length: number) => {
    const bytes = tar.subarray(at, at + length);
    const end = bytes.indexOf(0);
    return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  let paxPath: string | undefined;
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = field(at, 100);
    if (name === '') break;
    const size = Number.parseInt(field(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156] ?? 0);
    const prefix = field(at + 345, 155);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (Number.isNaN(size)) break;
    if (type === 'x') {
      // A PAX header: a long name comes as its `path` record, for the entry that follows.
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(decoder.decode(body))?.[1];
      continue;
    }
    const full = paxPath ?? (prefix ? `${prefix}/${name}` : name);
    paxPath = undefined;
    if (type !== '0' && type !== '\0') continue;
    const inChart = full.slice(full.indexOf('/') + 1);
    if (full.includes('/') && inChart !== '') out.set(inChart, body);
  }
  return { entries: out };
}
