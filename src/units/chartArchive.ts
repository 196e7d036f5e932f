import { gunzipSync } from 'node:zlib';

/** A packed chart past this size unpacked is not read (its templates are not looked into). */
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

/** An archive's entries, or why they could not all be read. */
export type ChartArchiveRead = { entries: Map<string, Uint8Array> } | { problem: 'unreadable' | 'too-large' };

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

/** chartArchiveFiles as bytes (a packed chart holds packed subcharts), saying when the archive could not be read whole. */
export function chartArchiveEntries(tgz: Uint8Array): ChartArchiveRead {
  const out = new Map<string, Uint8Array>();
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (err) {
    return { problem: (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'unreadable' };
  }
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
