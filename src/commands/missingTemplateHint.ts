// What explain and reschedule say when no template has the name they were given: the templates of that name in other
// kinds or namespaces, else the nearest name of that kind (a typo: `deploy/ngnix` for `deploy/nginx`).
import { describeRef, groupOf } from '../api/kinds.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { suggestName } from '../text/suggestName.ts';

export interface WantedTemplate {
  kind: string;
  /** Undefined when the words named no group (`deploy` rather than `deployments.apps`). */
  group: string | undefined;
  name: string;
  /** Undefined: any namespace. */
  namespace: string | undefined;
}

/**
 * Templates named `name` (any kind, any namespace; each once, though the caller may list one twice), else the closest
 * name of the wanted kind. Pure.
 */
export function missingTemplateHint(
  templates: Iterable<{ ref: ObjectRef }>,
  wanted: WantedTemplate,
): { sameName: string[]; nearest?: string } {
  const all = [...templates];
  const sameName = [...new Set(all.filter((t) => t.ref.name === wanted.name).map((t) => describeRef(t.ref)))];
  if (sameName.length > 0) return { sameName };
  const names = all
    .filter(
      (t) =>
        t.ref.kind === wanted.kind &&
        (wanted.group === undefined || groupOf(t.ref.apiVersion) === wanted.group) &&
        (wanted.namespace === undefined || t.ref.namespace === wanted.namespace),
    )
    .map((t) => t.ref.name);
  const nearest = suggestName(wanted.name, [...new Set(names)].sort());
  return nearest === undefined ? { sameName } : { sameName, nearest };
}
