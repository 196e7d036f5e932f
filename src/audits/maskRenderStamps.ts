import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';

const STAMP_VALUE = new RegExp(`^(\\s*${SOURCE_COMMIT_ANNOTATION.replace(/[./]/g, '\\$&')}: ).*$`, 'gm');
// The success messages of a binding's Scheduled condition: output of older Flotillas also holds "Binding kept its
// previous result", written where a render kept a result that had no Scheduled condition (now none is written, as
// Karmada's scheduler patches none), so which one a file holds depends on render history, not on the source.
const SCHEDULED_MESSAGE =
  /^(\s*message: )(?:Binding kept its previous result|Binding has been scheduled successfully\.)$/gm;

/**
 * A rendered file with the values that legitimately depend on render history blanked: the source-commit
 * stamp (an incremental render keeps the stamp of the commit that last changed the object) and, in
 * bindings, the success message of the Scheduled condition. Every other byte must match.
 */
export function maskRenderStamps(text: string): string {
  return text.replace(STAMP_VALUE, '$1<stamp>').replace(SCHEDULED_MESSAGE, '$1<scheduled>');
}
