import type { SourceSpan } from '../errors/problem.ts';
import type { Template } from './model.ts';

/**
 * Where a problem found in a template after it was read is reported, and its message as said there (pure): at the file
 * its unit's tool named (`origin`), else its own. An object of a packed subchart has no file of the commit: it is
 * reported at the archive's first line with the template and line inside it before the message, as the unit's render
 * places its own problems (`templates/db.yaml:7 in app/charts/db-0.1.0.tgz: …`).
 */
export function atTemplate(
  t: Pick<Template, 'source' | 'origin' | 'originInArchive' | 'originArchiveLine'>,
  message: string,
): SourceSpan & { message: string } {
  const span = t.origin ?? t.source;
  if (!t.originInArchive) return { ...span, message };
  const line = t.originArchiveLine ? `:${t.originArchiveLine}` : '';
  return { file: span.file, line: 1, column: 1, message: `${t.originInArchive}${line} in ${span.file}: ${message}` };
}
