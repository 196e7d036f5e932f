import { readBlobsWithin } from '../commits/readBlobs.ts';
import type { GitRepo } from '../commits/types.ts';
import { DEFAULT_PARSE_LIMITS } from '../documents/parseDocuments.ts';
import { IGNORE_FILE, parseIgnoreFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import type { Problem } from '../errors/problem.ts';
import { oversizedFile } from './oversizedFile.ts';

/**
 * The rules of a `.flotillaignore` blob as a render reads them: none over the parse limit, which is a problem of the
 * commit (the file is refused from its object header, never inflated).
 */
export async function ignoreRulesOf(
  repo: GitRepo,
  oid: string,
): Promise<{ rules: IgnoreRules | undefined; problem?: Problem }> {
  const { blobs, tooLarge } = await readBlobsWithin(repo, [oid], DEFAULT_PARSE_LIMITS.maxFileBytes);
  const size = tooLarge.get(oid);
  if (size !== undefined)
    return {
      rules: undefined,
      problem: oversizedFile(IGNORE_FILE, size, DEFAULT_PARSE_LIMITS.maxFileBytes).problems[0]!,
    };
  return { rules: parseIgnoreFile(new TextDecoder().decode(blobs.get(oid)!)) };
}
