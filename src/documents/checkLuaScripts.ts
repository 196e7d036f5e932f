// Karmada's webhook refuses a ResourceInterpreterCustomization whose Lua does not compile (checkCustomizationsRule) or
// that sets an operation another one of its kind sets (validateCustomizationRule): such a customization is broken
// here, so the last good one stays in force, and the error says why. Every hook counts, componentResource too,
// which Flotilla does not run.
import { CHECKED_LUA_HOOKS, type ResourceInterpreterCustomization } from '../api/interpreterCustomization.ts';
import type { FileObjects, Located } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { checkLuaScript, loadLuaRuntime } from '../interpreters/lua/luaRuntime.ts';
import { karmadaRef } from './karmadaRef.ts';

/**
 * The files with each customization Karmada's webhook would refuse taken out as broken, with an error: a script that
 * does not compile, or an operation another customization of the same kind already sets (all but the first by name;
 * every customization may add a dependency script). Others as they are.
 */
export async function checkLuaScripts(files: readonly FileObjects[]): Promise<FileObjects[]> {
  const all = files.flatMap((f) =>
    f.interpreterCustomizations.flatMap((c) =>
      c.object.kind === 'ResourceInterpreterCustomization' ? [c as Located<ResourceInterpreterCustomization>] : [],
    ),
  );
  if (all.length === 0) return [...files];
  await loadLuaRuntime();
  const refused = new Map<Located<ResourceInterpreterCustomization>, Problem[]>();
  const refuse = (c: Located<ResourceInterpreterCustomization>, p: Problem) =>
    refused.set(c, [...(refused.get(c) ?? []), p]);
  for (const c of all)
    for (const { hook, line, message } of compileErrors(c.object))
      refuse(c, {
        ...c.source,
        code: 'INVALID_VALUE',
        severity: 'error',
        message: `ResourceInterpreterCustomization ${c.object.metadata.name}: the ${hook} luaScript does not compile (its line ${line}): ${message}`,
        fix: `correct line ${line} of spec.customizations.${hook}.luaScript; until then the last good definition stays in force`,
      });
  // validateCustomizationRule: one script per operation and kind; the earlier name keeps it. Only admitted
  // customizations hold an operation: one the webhook refuses is never stored, so it stands in no later one's way.
  const owner = new Map<string, Located<ResourceInterpreterCustomization>>();
  for (const c of [...all].sort((a, b) => compareNames(a.object.metadata.name, b.object.metadata.name))) {
    const { apiVersion, kind } = c.object.spec.target;
    const held: string[] = [];
    for (const hook of CHECKED_LUA_HOOKS) {
      if (hook === 'dependencyInterpretation' || !c.object.spec.customizations[hook]?.luaScript) continue;
      const key = `${apiVersion}/${kind}/${hook}`;
      const first = owner.get(key);
      if (!first) held.push(key);
      else
        refuse(c, {
          ...c.source,
          code: 'INVALID_VALUE',
          severity: 'error',
          message: `ResourceInterpreterCustomization ${c.object.metadata.name}: its ${hook} is conflicting with the same operation of ResourceInterpreterCustomization ${first.object.metadata.name} (${first.source.file}) for ${apiVersion} ${kind}`,
          fix: `keep one ${hook} for ${kind}: remove it from one of the two (Karmada's webhook refuses the second)`,
        });
    }
    if (!refused.has(c)) for (const key of held) owner.set(key, c);
  }
  if (refused.size === 0) return [...files];
  return files.map((f) => {
    const mine = f.interpreterCustomizations.filter((c) => refused.has(c as Located<ResourceInterpreterCustomization>));
    if (mine.length === 0) return f;
    return {
      ...f,
      interpreterCustomizations: f.interpreterCustomizations.filter((c) => !mine.includes(c)),
      broken: [...f.broken, ...mine.map((c) => karmadaRef(c.object))],
      problems: [...f.problems, ...mine.flatMap((c) => refused.get(c as Located<ResourceInterpreterCustomization>)!)],
    };
  });
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compileErrors(ric: ResourceInterpreterCustomization): { hook: string; line: number; message: string }[] {
  const out: { hook: string; line: number; message: string }[] = [];
  for (const hook of CHECKED_LUA_HOOKS) {
    const script = ric.spec.customizations[hook]?.luaScript;
    const error = script ? checkLuaScript(script) : undefined;
    if (error) out.push({ hook, ...error });
  }
  return out;
}
