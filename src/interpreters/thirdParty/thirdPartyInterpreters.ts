import { LuaHookError } from '../lua/luaRuntime.ts';
import { ARGO_KYVERNO } from './argoKyverno.ts';
import { FLUX } from './flux.ts';
import { KRUISE } from './kruise.ts';
import { KUBEFLOW_RAY_BATCH } from './kubeflowRayBatch.ts';
import { BundledInterpreterError, type ThirdPartyInterpreter } from './thirdPartyInterpreter.ts';

/** The Lua function each operation stands for, as a failure names it. */
const SCRIPT_FUNCTIONS: Record<keyof ThirdPartyInterpreter, string> = {
  getReplicas: 'GetReplicas',
  reviseReplica: 'ReviseReplica',
  retain: 'Retain',
  aggregateStatus: 'AggregateStatus',
  interpretHealth: 'InterpretHealth',
  reflectStatus: 'ReflectStatus',
  getDependencies: 'GetDependencies',
};

/**
 * A bundled operation that fails does so as a failed script would (a LuaHookError naming the function), whatever it
 * threw: the render holds that template's output, the status writer reads Unknown health, as for a customization.
 */
function failingAsScripts(interpreter: ThirdPartyInterpreter): ThirdPartyInterpreter {
  const out: Record<string, unknown> = {};
  for (const [operation, fn] of Object.entries(interpreter) as [
    keyof ThirdPartyInterpreter,
    (...a: never[]) => unknown,
  ][]) {
    out[operation] = (...args: never[]) => {
      try {
        return fn(...args);
      } catch (err) {
        if (err instanceof BundledInterpreterError) throw err;
        throw new BundledInterpreterError(
          err instanceof Error ? err.message : String(err),
          err instanceof LuaHookError && err.fn ? err.fn : SCRIPT_FUNCTIONS[operation],
        );
      }
    };
  }
  return out as ThirdPartyInterpreter;
}

/** Every kind Karmada bundles an interpreter for, by `<apiVersion>/<kind>`. */
export const THIRD_PARTY_INTERPRETERS: ReadonlyMap<string, ThirdPartyInterpreter> = new Map(
  Object.entries({ ...KRUISE, ...FLUX, ...KUBEFLOW_RAY_BATCH, ...ARGO_KYVERNO }).map(([key, interpreter]) => [
    key,
    failingAsScripts(interpreter),
  ]),
);
