import { describeRef } from '../api/kinds.ts';
import type { ConfigModel } from '../api/model.ts';
import { outputPathKeys } from '../branches/rendered/outputPaths.ts';

/**
 * Of templates whose output would share a file (assembleModel's PATH_COLLISION, which holds them all: a commit alone
 * cannot tell which came first), gives the file back to the one whose output the previous render wrote there, when the
 * others it shares files with had none: it renders as its file says, and only the newcomers stay held. Otherwise a
 * pull request adding an object of the same kind and name in another API group would freeze the existing one, whose
 * owners' later changes would never reach the members (Karmada keeps the first object's binding and refuses the
 * second). `hadOutput(key)`: the previous render placed the template somewhere. Modifies the model.
 */
export function keepIncumbents(model: ConfigModel, hadOutput: (key: string) => boolean): void {
  const collided = model.collided;
  if (!collided || collided.size === 0) return;
  const holders = new Map<string, string[]>();
  for (const [key, t] of collided)
    for (const path of outputPathKeys(t.ref)) holders.set(path, [...(holders.get(path) ?? []), key]);
  const kept = [...collided].filter(([key, t]) => {
    if (!hadOutput(key)) return false;
    const rivals = outputPathKeys(t.ref).flatMap((path) => (holders.get(path) ?? []).filter((k) => k !== key));
    return rivals.length > 0 && rivals.every((k) => !hadOutput(k));
  });
  for (const [key, t] of kept) {
    collided.delete(key);
    model.held.delete(key);
    model.templates.set(key, t);
    const at = (p: { file: string; line: number; column: number }) =>
      p.file === t.source.file && p.line === t.source.line && p.column === t.source.column;
    model.problems = model.problems.flatMap((p) => {
      if (p.code !== 'PATH_COLLISION') return [p];
      if (at(p)) return [];
      const data = p.data as { first?: typeof t.source; second?: typeof t.source } | undefined;
      if (!(data?.first && at(data.first)) && !(data?.second && at(data.second))) return [p];
      return [
        {
          ...p,
          message: `${p.message.replace(/; both keep their last output$/, '')}; ${describeRef(t.ref)} (${t.ref.apiVersion}) was there first and keeps rendering, nothing is written for this one`,
          fix: 'rename this object (or drop it): the object already there keeps the file',
        },
      ];
    });
  }
}
