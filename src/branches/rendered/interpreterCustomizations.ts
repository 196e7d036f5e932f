// .flotilla/interpreters.json on the rendered branch: the resource interpreter customizations the rendered source
// commit holds (Karmada's ResourceInterpreterCustomizations and Flotilla's InterpreterCustomizations, a broken one
// as its last good definition), as the render used them. The applier's Retain and the status pass's health,
// reflection and aggregation read them here, and so can a Pull agent, which has only this branch.
import type { AnyInterpreterCustomization } from '../../api/interpreterCustomization.ts';

export const INTERPRETERS_PATH = '.flotilla/interpreters.json';

/** The file's bytes, sorted by kind then name; '' when there are none (no file is written). */
export function serializeInterpreterCustomizations(list: readonly AnyInterpreterCustomization[]): string {
  if (list.length === 0) return '';
  const sorted = [...list].sort((a, b) => {
    const x = `${a.kind}/${a.metadata.name}`;
    const y = `${b.kind}/${b.metadata.name}`;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return `${JSON.stringify({ customizations: sorted }, null, 1)}\n`;
}

export function parseInterpreterCustomizations(text: string): AnyInterpreterCustomization[] {
  const parsed = JSON.parse(text) as { customizations?: unknown };
  return Array.isArray(parsed.customizations)
    ? (parsed.customizations.filter(
        (c) =>
          c !== null &&
          typeof c === 'object' &&
          (((c as { kind?: unknown }).kind === 'ResourceInterpreterCustomization' &&
            (c as { apiVersion?: unknown }).apiVersion === 'config.karmada.io/v1alpha1') ||
            ((c as { kind?: unknown }).kind === 'InterpreterCustomization' &&
              (c as { apiVersion?: unknown }).apiVersion === 'flotilla.io/v1alpha1')),
      ) as AnyInterpreterCustomization[])
    : [];
}
