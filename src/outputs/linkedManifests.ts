import type { FileObjects } from '../api/model.ts';
import { emptyFileObjects } from '../api/model.ts';
import { readBlobsWithin } from '../commits/readBlobs.ts';
import type { GitRepo } from '../commits/types.ts';

/** How git stores a symbolic link: its blob holds the path it points to. */
export const SYMLINK_MODE = '120000';

/**
 * The longest link target read (Linux's PATH_MAX): a longer one is no path a checkout could make, and a hand-made link
 * blob of gigabytes, inflated and decoded into the message, exhausted memory or threw and stopped every later commit.
 */
const MAX_TARGET_BYTES = 4096;

/**
 * Manifest files the commit holds as symbolic links (Knative's config/ links files from vendor/), each as a file that
 * cannot be read: a render reads the commit's blobs, and a link's blob is the path it points to, not a manifest. An
 * error at the link naming its target and the fix; whatever the path rendered before is kept, as for any file that
 * cannot be read, so replacing a file with a link never deletes what it placed.
 */
export async function linkedManifests(
  repo: GitRepo,
  links: ReadonlyMap<string, string>,
): Promise<Map<string, FileObjects>> {
  const { blobs: targets, tooLarge } = await readBlobsWithin(repo, new Set(links.values()), MAX_TARGET_BYTES);
  const decoder = new TextDecoder();
  const out = new Map<string, FileObjects>();
  for (const [path, oid] of links) {
    const bytes = targets.get(oid);
    const size = tooLarge.get(oid);
    const target = bytes ? decoder.decode(bytes) : size !== undefined ? `a target of ${size} bytes, no path` : '?';
    out.set(
      path,
      emptyFileObjects(path, {
        unreadable: true,
        problems: [
          {
            file: path,
            line: 1,
            column: 1,
            code: 'SYMLINK_NOT_FOLLOWED',
            severity: 'error',
            message: `${path} is a symbolic link (to ${target}), which a render does not follow: it reads the commit's files, and a link's content is the path it points to`,
            fix: `commit the file itself in place of the link (\`cp --remove-destination "$(readlink -f ${path})" ${path}\`), or list the link in .flotillaignore; until then what it rendered before is kept`,
          },
        ],
      }),
    );
  }
  return out;
}
