import type { ThirdPartyInterpreter } from './thirdPartyInterpreter.ts';

/** Every kind Karmada bundles an interpreter for, by `<apiVersion>/<kind>`. */
export const THIRD_PARTY_INTERPRETERS: ReadonlyMap<string, ThirdPartyInterpreter> = new Map();
