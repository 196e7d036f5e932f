import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';

const STAMP_LINE = new RegExp(`^\\s*${SOURCE_COMMIT_ANNOTATION.replace(/[./]/g, '\\$&')}: .*\\n?`, 'gm');

/**
 * A rendered manifest without its flotilla.io/source-commit line. The stamp names the commit being
 * rendered, so base and head always differ there; a plan shows only what the cluster would see change.
 */
export function stripSourceCommit(text: string): string {
  return text.replace(STAMP_LINE, '');
}
