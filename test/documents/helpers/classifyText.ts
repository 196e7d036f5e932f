import { classifyDocuments } from '../../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../../src/documents/parseDocuments.ts';

/** One file's text as validate reads it: parsed, then sorted into templates, Karmada objects and problems. */
export function classifyText(file: string, text: string): ReturnType<typeof classifyDocuments> {
  const { documents, problems } = parseDocuments(file, new TextEncoder().encode(text));
  return classifyDocuments(file, documents, problems);
}
