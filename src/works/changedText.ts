// The text an output file gets, stamped with the source commit, and whether it differs from the previous file.
import type { ResourceBinding } from '../api/binding.ts';
import { manifestYaml } from '../branches/rendered/manifestYaml.ts';

export const SOURCE_COMMIT_ANNOTATION = 'flotilla.io/source-commit';

/**
 * The object's text stamped with the source commit; undefined when the previous file says the same thing apart from
 * the stamp: then the old bytes stay, so the stamp names the commit that last changed what this object became.
 */
export function changedText(
  obj: Record<string, unknown> | ResourceBinding,
  previous: string | undefined,
  commit: string,
): string | undefined {
  const meta = (obj.metadata ?? {}) as { annotations?: Record<string, string> };
  const stamped = {
    ...obj,
    metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), [SOURCE_COMMIT_ANNOTATION]: commit } },
  };
  const text = manifestYaml(stamped);
  if (previous !== undefined && unstamp(previous) === unstamp(text)) return undefined;
  return text;
}

const STAMP_LINE = new RegExp(`^(\\s*${SOURCE_COMMIT_ANNOTATION.replace(/[./]/g, '\\$&')}: ).*$`, 'm');
function unstamp(text: string): string {
  return text.replace(STAMP_LINE, '$1');
}
