import { WORK_ONLY_ANNOTATIONS } from '../branches/rendered/workOnlyAnnotations.ts';
import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';

const escaped = (key: string) => key.replace(/[./]/g, '\\$&');
const STAMP_LINE = new RegExp(`^\\s*${escaped(SOURCE_COMMIT_ANNOTATION)}: .*\\n?`, 'gm');
/** At metadata.annotations' indentation only: the same key deeper down is the object's own data. */
const WORK_ONLY_LINE = new RegExp(`^ {4}(?:${WORK_ONLY_ANNOTATIONS.map(escaped).join('|')}): .*\\n?`, 'gm');

/**
 * A rendered manifest as its member sees it, for a plan to compare: without its flotilla.io/source-commit line (the
 * stamp names the commit being rendered, so base and head always differ there) nor the Work's own annotations, which
 * the applier keeps from the member (workOnlyAnnotations.ts). A policy edit that changes nothing a member gets is no
 * change in the plan, though the rendered file records it.
 */
export function memberText(text: string): string {
  return text.replace(STAMP_LINE, '').replace(WORK_ONLY_LINE, '');
}
