// Karmada's resourcedeletionprotection webhook refuses to delete an object labelled
// resourcetemplate.karmada.io/deletion-protected: Always. Git cannot refuse a commit, so the render refuses the
// deletion instead: the template's last output stays on its clusters and the commit gets an error, until a commit
// first takes the label off (as Karmada asks: remove the label, then delete).
import { describeRef, parseRefKey, type ObjectRef } from '../api/kinds.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';

export const DELETION_PROTECTION_LABEL = 'resourcetemplate.karmada.io/deletion-protected';
/** The only value that protects (Karmada: "Additional options will be added here in the future"). */
export const DELETION_PROTECTION_ALWAYS = 'Always';

export function isDeletionProtected(labels: Readonly<Record<string, string>> | undefined): boolean {
  return labels?.[DELETION_PROTECTION_LABEL] === DELETION_PROTECTION_ALWAYS;
}

/** The error of a commit that deletes a protected template, at `where` (the file that held it). */
export function deletionRefused(ref: ObjectRef, where: SourceSpan): Problem {
  return {
    ...where,
    code: 'DELETION_PROTECTED',
    severity: 'error',
    message: `${describeRef(ref)} is labelled ${DELETION_PROTECTION_LABEL}: ${DELETION_PROTECTION_ALWAYS}: its deletion is refused and its last output stays on its clusters`,
    fix: `to delete it, first push a commit that removes the label ${DELETION_PROTECTION_LABEL} (or sets another value), then delete it in a later push`,
    data: { ref },
  };
}

/**
 * A removed Namespace whose templates include one that stays protected: Karmada accepts the Namespace's deletion, but
 * the namespace controller cannot delete that object (the webhook refuses), so the Namespace stays, Terminating, with
 * everything its Works put on the members. Its refKey when `key` is a Namespace and some template of that namespace is
 * protected after this commit: by the labels the commit gives it, else by those its last render recorded (`contents`,
 * the previous index entries of the namespace's templates; one the commit deletes is held by its own protection).
 */
export function protectedInNamespace(
  key: string,
  contents: ReadonlyMap<string, readonly (readonly [string, { labels?: Record<string, string> }])[]> | undefined,
  current: ReadonlyMap<string, { ref: ObjectRef; labels: Record<string, string> }>,
): string | undefined {
  const ref = parseRefKey(key);
  if (ref.apiVersion !== 'v1' || ref.kind !== 'Namespace' || ref.namespace) return undefined;
  for (const [inside, entry] of contents?.get(ref.name) ?? []) {
    const now = current.get(inside);
    if (isDeletionProtected(now ? now.labels : entry.labels)) return inside;
  }
  for (const [inside, t] of current) if (t.ref.namespace === ref.name && isDeletionProtected(t.labels)) return inside;
  return undefined;
}

/** The warning of a commit that deletes a Namespace `guard` (a protected template's refKey) keeps alive. */
export function namespaceKept(ref: ObjectRef, guard: string, where: SourceSpan): Problem {
  const held = describeRef(parseRefKey(guard));
  return {
    ...where,
    code: 'DELETION_PROTECTED',
    severity: 'warning',
    message: `${describeRef(ref)} still holds ${held}, labelled ${DELETION_PROTECTION_LABEL}: ${DELETION_PROTECTION_ALWAYS}: as in Karmada, where the namespace stays Terminating while that object refuses its deletion, its last output stays on its clusters`,
    fix: `to delete the namespace, first push a commit that takes the label ${DELETION_PROTECTION_LABEL} off ${held}; the namespace goes in the first render after nothing protected is left in it`,
    data: { ref, protectedBy: guard },
  };
}

/** The names of the Namespaces a render removes: the affected v1 Namespaces the source lacks and the last render had. */
export function removedNamespaces(
  affected: Iterable<string>,
  inSource: (key: string) => boolean,
  renderedBefore: (key: string) => boolean,
): Set<string> {
  const names = new Set<string>();
  for (const key of affected) {
    if (inSource(key) || !renderedBefore(key)) continue;
    const ref = parseRefKey(key);
    if (ref.apiVersion === 'v1' && ref.kind === 'Namespace' && !ref.namespace) names.add(ref.name);
  }
  return names;
}

/** Entries (refKey first) of templates in the named namespaces, by namespace: renderTemplates' namespaceContents. */
export function entriesByNamespace<E>(
  entries: Iterable<readonly [string, E]>,
  names: ReadonlySet<string>,
): Map<string, [string, E][]> {
  const out = new Map<string, [string, E][]>();
  for (const [key, entry] of entries) {
    const namespace = parseRefKey(key).namespace;
    if (!names.has(namespace)) continue;
    let list = out.get(namespace);
    if (!list) out.set(namespace, (list = []));
    list.push([key, entry]);
  }
  return out;
}
