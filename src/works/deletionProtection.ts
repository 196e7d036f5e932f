// Karmada's resourcedeletionprotection webhook refuses to delete an object labelled
// resourcetemplate.karmada.io/deletion-protected: Always. Git cannot refuse a commit, so the render refuses the
// deletion instead: the template's last output stays on its clusters and the commit gets an error, until a commit
// first takes the label off (as Karmada asks: remove the label, then delete).
import { describeRef, type ObjectRef } from '../api/kinds.ts';
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
