// Karmada's webhook refuses a ResourceInterpreterCustomization whose Lua does not compile (checkCustomizationsRule):
// such a customization is broken here, so the last good one stays in force, and the error names the script's line.
import { LUA_HOOKS, type ResourceInterpreterCustomization } from '../api/interpreterCustomization.ts';
import type { FileObjects } from '../api/model.ts';
import { checkLuaScript, loadLuaRuntime } from '../interpreters/lua/luaRuntime.ts';
import { karmadaRef } from './karmadaRef.ts';

/** The files with each customization whose scripts do not compile taken out as broken, with an error; others as they are. */
export async function checkLuaScripts(files: readonly FileObjects[]): Promise<FileObjects[]> {
  if (!files.some((f) => f.interpreterCustomizations.some((c) => c.object.kind === 'ResourceInterpreterCustomization')))
    return [...files];
  await loadLuaRuntime();
  return files.map((f) => {
    const failing = f.interpreterCustomizations.flatMap((c) =>
      c.object.kind === 'ResourceInterpreterCustomization' ? compileErrors(c.object).map((e) => ({ c, ...e })) : [],
    );
    if (failing.length === 0) return f;
    const broken = new Set(failing.map((x) => x.c));
    return {
      ...f,
      interpreterCustomizations: f.interpreterCustomizations.filter((c) => !broken.has(c)),
      broken: [...f.broken, ...[...broken].map((c) => karmadaRef(c.object))],
      problems: [
        ...f.problems,
        ...failing.map(({ c, hook, line, message }) => ({
          ...c.source,
          code: 'INVALID_VALUE' as const,
          severity: 'error' as const,
          message: `ResourceInterpreterCustomization ${c.object.metadata.name}: the ${hook} luaScript does not compile (its line ${line}): ${message}`,
          fix: `correct line ${line} of spec.customizations.${hook}.luaScript; until then the last good definition stays in force`,
        })),
      ],
    };
  });
}

function compileErrors(ric: ResourceInterpreterCustomization): { hook: string; line: number; message: string }[] {
  const out: { hook: string; line: number; message: string }[] = [];
  for (const hook of LUA_HOOKS) {
    const script = ric.spec.customizations[hook]?.luaScript;
    const error = script ? checkLuaScript(script) : undefined;
    if (error) out.push({ hook, ...error });
  }
  return out;
}
