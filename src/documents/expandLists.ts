import type { Problem } from '../errors/problem.ts';
import type { SourceDocument } from './parseDocuments.ts';

/** One object to classify: a document, or one item of a list document, named for messages. */
export interface ListedObject {
  doc: SourceDocument;
  /** `document 2`, or `document 2 items[0]` for an item of a list. */
  label: string;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * kubectl apply's reading of list documents (apimachinery's unstructured decoder, then cli-runtime's
 * FlattenListVisitor with meta.ExtractList), so a `kind: List`, `ConfigMapList`, `RoleList` ... applies here
 * as it does there:
 * - a document with an `items` field is a list, whatever its kind; `items: null` is an empty list, any other
 *   non-list `items` an error;
 * - an item stating neither kind nor apiVersion takes the list's apiVersion and its kind without the `List`
 *   suffix (a PodList's items are Pods; a `List`'s items must say what they are);
 * - an item with an `items` field of its own is an error: kubectl 1.32 refuses a list inside a list
 *   ("is not a list: no Items field") and an item with a non-list `items` alike;
 * - every item keeps its own position: problems point at its line.
 */
export function expandLists(doc: SourceDocument): { objects: ListedObject[]; problems: Problem[] } {
  const label = `document ${doc.index + 1}`;
  const value = doc.value;
  if (!isObject(value) || !('items' in value)) return { objects: [{ doc, label }], problems: [] };
  const problems: Problem[] = [];
  const objects: ListedObject[] = [];
  if (value.items === null) return { objects, problems };
  if (!Array.isArray(value.items)) {
    problems.push({
      ...doc.locate(['items']),
      code: 'INVALID_VALUE',
      severity: 'error',
      message: `${label} (${text(value.kind) || 'a list'}): items must be a list of objects`,
      fix: 'write items as a YAML list (- apiVersion: ...), or rename the field: kubectl reads any document with items as a list',
    });
    return { objects, problems };
  }
  const itemKind = text(value.kind).replace(/List$/, '');
  const listApiVersion = text(value.apiVersion);
  value.items.forEach((raw, i) => {
    const at = ['items', i];
    const itemLabel = `${label} items[${i}]`;
    if (!isObject(raw)) {
      problems.push({
        ...doc.locate(at),
        code: 'NOT_AN_OBJECT',
        severity: 'error',
        message: `${itemLabel} is ${Array.isArray(raw) ? 'a list' : raw === null ? 'empty' : typeof raw}, not a Kubernetes object`,
        fix: 'each item of a list must be a mapping with apiVersion, kind and metadata.name',
      });
      return;
    }
    if ('items' in raw) {
      problems.push({
        ...doc.locate(at),
        code: 'INVALID_VALUE',
        severity: 'error',
        message: `${itemLabel} has items of its own: a list inside a list, which kubectl apply refuses too`,
        fix: 'move its items up into the outer list, or make it a document of its own',
      });
      return;
    }
    const item =
      text(raw.kind) === '' && text(raw.apiVersion) === ''
        ? { ...raw, apiVersion: listApiVersion, kind: itemKind }
        : raw;
    objects.push({
      label: itemLabel,
      doc: {
        value: item,
        index: doc.index,
        source: doc.locate(at),
        locate: (p, key) => doc.locate([...at, ...p], key),
      },
    });
  });
  return { objects, problems };
}
