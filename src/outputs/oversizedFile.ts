import { classifyDocuments } from '../documents/classifyDocuments.ts';
import type { FileObjects } from '../api/model.ts';
import { formatMiB } from '../errors/formatMiB.ts';

/**
 * A source file whose blob is over the parse limit, known from the object header without inflating it: the same
 * FILE_TOO_LARGE problem parseDocuments reports for a file it was handed whole, and no objects, so what the file
 * rendered before is kept.
 */
export function oversizedFile(file: string, size: number, limit: number): FileObjects {
  return classifyDocuments(
    file,
    [],
    [
      {
        file,
        line: 1,
        column: 1,
        code: 'FILE_TOO_LARGE',
        severity: 'error',
        message: `file is ${formatMiB(size)}, over the ${formatMiB(limit)} limit`,
        fix: 'split it into smaller files, or list it in .flotillaignore if it is not a manifest',
      },
    ],
  );
}
