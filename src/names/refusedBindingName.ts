import { bindingName } from './bindingName.ts';
import { workName } from './workName.ts';
import { DNS1123_SUBDOMAIN } from '../labels/labelFormats.ts';

// Karmada names a template's ResourceBinding and each of its Works after the template (names.GenerateBindingName,
// names.GenerateWorkName), and both are custom resources, whose names the API server checks as DNS-1123 subdomains of
// at most 253 characters. A name that passes as the template's (an RBAC name with '_' or '@', a name of 250
// characters) can fail as theirs: the detector's create is refused on every retry, or the binding controller's, and
// nothing reaches a member.

const MAX_NAME = 253;

export interface RefusedName {
  /** 'ResourceBinding' (ClusterResourceBinding when cluster-scoped) or 'Work'. */
  object: string;
  name: string;
  /** Why the API server refuses it. */
  why: string;
  /** What to change in the template. */
  fix: string;
}

/**
 * The first name Karmada would build for this template that its API server refuses, or undefined when both the
 * binding's and the Works' are valid. `namespace` is '' for a cluster-scoped template.
 */
export function refusedBindingName(kind: string, name: string, namespace: string): RefusedName | undefined {
  const binding = bindingName(kind, name);
  const bindingKind = namespace ? 'ResourceBinding' : 'ClusterResourceBinding';
  const work = workName(kind, name, namespace);
  for (const [object, generated, added] of [
    [bindingKind, binding, binding.length - name.length],
    ['Work', work, work.length - name.length],
  ] as const) {
    if (generated.length > MAX_NAME)
      return {
        object,
        name: generated,
        why: `it is ${generated.length} characters, over the API server's limit of ${MAX_NAME}`,
        fix: `shorten metadata.name to at most ${MAX_NAME - added} characters (Karmada adds ${added} to name the ${object})`,
      };
    if (!DNS1123_SUBDOMAIN.test(generated))
      return {
        object,
        name: generated,
        why: "it is not a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', each part starting and ending with a letter or digit); Karmada makes only ':' into '.' and lowercases the rest",
        fix: "give it a DNS-compatible name: letters, digits, '-', '.' and ':' only, each part between dots or colons starting and ending with a letter or digit",
      };
  }
  return undefined;
}
