// The sandboxed Lua VM that runs a ResourceInterpreterCustomization's luaScript, shaped like Karmada's luavm
// (NewLuaState/setLib): the libraries of gopher-lua's Lua 5.1 as Karmada trims them, a 1 s deadline per call, and
// the `kube` module. The VM is Lua 5.4 compiled to WebAssembly (wasmoon), so the places where 5.4 would answer a
// 5.1 script differently are bridged here.
import { podDependencies } from '../podDependencies.ts';
import { fiveFourOnlySyntax, withFiveOneEscapes } from './luaFiveOneSyntax.ts';
import {
  type CaptureSlots,
  capturePosition,
  findGopherPattern,
  GopherPatternError,
  isPositionCapture,
} from './gopherPatterns.ts';
import { type GoFormatArg, luaStringFormat } from './goSprintf.ts';
import { formatGoNumber, routeFloatTextToHost } from './luaNumberText.ts';
import type { LuaEngine, LuaWasm } from 'wasmoon';
import { replicaRequirements } from '../replicaRequirements.ts';
import {
  addGoQuantities,
  encodeValue,
  formatGoQuantity,
  type GoQuantity,
  goQuantityNumber,
  type Json,
  type JsonObject,
  type LuaState,
  LuaConvertError,
  type LuaValue,
  luaTypeName,
  parseGoQuantity,
  pushString,
  pushValue,
  pushBytes,
  readBytes,
  readString,
  readValue,
  repairEmptyTables,
  ZERO_QUANTITY,
} from './luaConvert.ts';

/** A hook could not run or its result was not what Karmada accepts; the message is Karmada's where it has one. */
export class LuaHookError extends Error {
  override name = 'LuaHookError';
  constructor(
    message: string,
    /** The script function that was called (GetReplicas, Retain, …). */
    readonly fn?: string,
  ) {
    super(message);
  }
}

/** Karmada runs every call under context.WithTimeout(…, time.Second). */
const CALL_TIMEOUT_MS = 1000;
/** gopher-lua has no cap; one here keeps a runaway script from taking the process down. */
const MEMORY_MAX = 64 * 1024 * 1024;
/** Garbage left by a big call is collected right away rather than kept by an idle engine. */
const COLLECT_ABOVE = 8 * 1024 * 1024;
/** Engines kept, one per distinct script. */
const CACHE_SIZE = 64;
/** The count hook fires every this many VM instructions to look at the clock. */
const HOOK_EVERY = 1000;
const MASK_COUNT = 8;
const STATUS_OK = 0;
const STATUS_MEMORY = 4;
const TYPE_NIL = 0;
const TYPE_BOOLEAN = 1;
const TYPE_NUMBER = 3;
const TYPE_STRING = 4;
const TYPE_TABLE = 5;
const TYPE_FUNCTION = 6;
const TYPE_USERDATA = 7;
const CHUNK_NAME = '=<string>';

interface Natives {
  hook: number;
  functions: Record<string, number>;
}

let wasm: LuaWasm | undefined;
let natives: Natives | undefined;
/** The wasmoon package: imported by loadLuaRuntime, not at the top, so a command that runs no Lua does not load it. */
let lib: typeof import('wasmoon') | undefined;
let loading: Promise<void> | undefined;
let deadline = Number.POSITIVE_INFINITY;
let timedOut = false;

export function isLuaRuntimeLoaded(): boolean {
  return wasm !== undefined;
}

/** Loads the WebAssembly module once per process; later calls return at once. */
export function loadLuaRuntime(): Promise<void> {
  if (wasm) return Promise.resolve();
  loading ??= (async () => {
    const imported = await import('wasmoon');
    const module = await withFloatsPrintedAsGoPrintsThem(() => new imported.LuaFactory().getLuaModule());
    makeIntegralFloatsPrintAsIntegers(module);
    natives = registerNatives(module);
    lib = imported;
    wasm = module;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

function runtime(): { lua: LuaWasm; natives: Natives; lib: typeof import('wasmoon') } {
  if (!wasm || !natives || !lib) throw new Error('the Lua runtime is not loaded: await loadLuaRuntime() first');
  return { lua: wasm, natives, lib };
}

type Instantiate = (
  bytes: BufferSource,
  imports?: WebAssembly.Imports,
) => Promise<WebAssembly.WebAssemblyInstantiatedSource>;

/**
 * wasmoon instantiates its module itself, with no hook for the bytes or the imports: WebAssembly.instantiate is
 * wrapped while it loads, and only the Lua module (the one importing env.strftime) is rerouted.
 */
async function withFloatsPrintedAsGoPrintsThem<T>(load: () => Promise<T>): Promise<T> {
  const original = WebAssembly.instantiate as Instantiate;
  const wrapped: Instantiate = async (source, imports) => {
    const env = imports?.env as Record<string, WebAssembly.ImportValue> | undefined;
    if (!(source instanceof Uint8Array) || typeof env?.strftime !== 'function') return original(source, imports);
    const route = routeFloatTextToHost(source);
    const borrowed = env[route.importName] as (...args: number[]) => number;
    let memory: WebAssembly.Memory | undefined;
    const printFloat = (buffer: number, size: number, format: number, args: number): number => {
      if (format !== route.formatAddress || !memory) return borrowed(buffer, size, format, args);
      const text = Buffer.from(formatGoNumber(new DataView(memory.buffer).getFloat64(args, true)), 'latin1');
      const heap = new Uint8Array(memory.buffer);
      const length = Math.min(text.length, size - 1);
      heap.set(text.subarray(0, length), buffer);
      heap[buffer + length] = 0;
      return text.length;
    };
    const result = await original(route.bytes, { ...imports, env: { ...env, [route.importName]: printFloat } });
    memory = Object.values(result.instance.exports).find((e) => e instanceof WebAssembly.Memory);
    return result;
  };
  (WebAssembly as { instantiate: Instantiate }).instantiate = wrapped;
  try {
    return await load();
  } finally {
    (WebAssembly as { instantiate: Instantiate }).instantiate = original;
  }
}

/**
 * gopher-lua has only float64 and prints an integral one as an integer ("3"); Lua 5.4 prints the float 3.0 as "3.0"
 * in tostring, `..`, string.format("%s") and table.concat alike. All of them go through lobject.c's tostringbuff,
 * which appends ".0" when the text consists only of the characters "-0123456789". Emptying that constant in the
 * module's memory (shared by every engine) makes it never append.
 */
function makeIntegralFloatsPrintAsIntegers(lua: LuaWasm): void {
  const heap = lua.module.HEAPU8;
  const needle = Buffer.from('-0123456789\0', 'latin1');
  const at = Buffer.from(heap.buffer, heap.byteOffset, heap.byteLength).indexOf(needle);
  if (at >= 0) heap[at] = 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Functions the host provides to Lua: os.time/os.date (Karmada's oslib_safe) and the kube module (kube.go)

/**
 * A C function whose body is JavaScript. lua_error unwinds with a longjmp, so it is raised only after the body's
 * try/catch has finished: a catch around it would swallow the unwinding.
 */
function cFunction(lua: LuaWasm, body: (L: LuaState) => number): number {
  return lua.module.addFunction((L: LuaState) => {
    let message: string;
    try {
      return body(L);
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    lua.lua_settop(L, 0);
    pushString(lua, L, message);
    return lua.lua_error(L);
  }, 'ii');
}

function argTypeError(lua: LuaWasm, L: LuaState, n: number, fn: string, expected: string): Error {
  return new Error(`bad argument #${n} to ${fn} (${expected} expected, got ${luaTypeName(lua.lua_type(L, n))})`);
}

function checkTable(lua: LuaWasm, L: LuaState, n: number, fn: string): void {
  if (lua.lua_type(L, n) !== TYPE_TABLE) throw argTypeError(lua, L, n, fn, 'table');
}

/** CheckString: a string, or a number in its string form. */
function checkString(lua: LuaWasm, L: LuaState, n: number, fn: string): string {
  const type = lua.lua_type(L, n);
  if (type !== TYPE_STRING && type !== TYPE_NUMBER) throw argTypeError(lua, L, n, fn, 'string');
  return type === TYPE_STRING ? readString(lua, L, n) : lua.lua_tolstring(L, n, null);
}

/** ConvertLuaResultInto(table, &corev1.PodTemplateSpec{}): the template's spec, {} when it has none. */
function podSpecArg(lua: LuaWasm, L: LuaState, fn: string): JsonObject {
  checkTable(lua, L, 1, fn);
  let template: Json;
  try {
    template = repairEmptyTables(encodeValue(lua, L, 1, new Set()), 'struct');
  } catch (err) {
    if (err instanceof LuaConvertError) throw new Error(`fail to convert lua value to PodTemplateSpec: ${err.message}`);
    throw err;
  }
  const spec = (template as JsonObject).spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? spec : {};
}

/** checkResourceQuantity: nil is zero, a string is parsed as resource.MustParse does, anything else is refused. */
function quantityArg(lua: LuaWasm, L: LuaState, n: number, fn: string): GoQuantity {
  const type = lua.lua_type(L, n);
  if (type === TYPE_NIL) return ZERO_QUANTITY;
  if (type !== TYPE_STRING) throw argTypeError(lua, L, n, fn, 'string');
  return parseGoQuantity(readString(lua, L, n));
}

/** The Go types gopher-lua's values have, which Sprintf names in its %!verb(type=value) texts. */
const REFERENCE_GO_TYPES: Record<string, string> = {
  table: '*lua.LTable',
  function: '*lua.LFunction',
  thread: '*lua.LState',
  userdata: '*lua.LUserData',
};

function registerNatives(lua: LuaWasm): Natives {
  /** Past the deadline: from now on every instruction raises, so a pcall in the script cannot swallow it and loop on. */
  const expire = (L: LuaState) => {
    timedOut = true;
    lua.lua_sethook(L, hook, MASK_COUNT, 1);
  };
  const hook = lua.module.addFunction((L: LuaState) => {
    if (Date.now() <= deadline) return;
    expire(L);
    pushString(lua, L, 'context deadline exceeded');
    lua.lua_error(L);
  }, 'vii');
  /** pm.Find over the arguments at 1 and 2, watching the deadline: the matches, or false and pm's error pushed. */
  const findPattern = (L: LuaState, offset: number, limit: number): { subject: Uint8Array; found?: CaptureSlots[] } => {
    const subject = readBytes(lua, L, 1).slice();
    const pattern = readBytes(lua, L, 2).slice();
    try {
      return {
        subject,
        found: findGopherPattern(pattern, subject, offset, limit, () => {
          if (Date.now() <= deadline) return;
          expire(L);
          throw new Error('context deadline exceeded');
        }),
      };
    } catch (err) {
      if (!(err instanceof GopherPatternError)) throw err;
      lua.lua_settop(L, 0);
      lua.lua_pushboolean(L, 0);
      pushString(lua, L, err.message);
      return { subject };
    }
  };
  /** Each capture from slot `from` on: a position capture as a number, any other as its text. */
  const pushCaptures = (L: LuaState, subject: Uint8Array, slots: CaptureSlots, from: number): number => {
    for (let i = from; i < slots.length; i += 2) {
      if (isPositionCapture(slots, i)) lua.lua_pushinteger(L, BigInt(capturePosition(slots, i)));
      else pushBytes(lua, L, subject.subarray(capturePosition(slots, i), capturePosition(slots, i + 1)));
    }
    return Math.max(0, (slots.length - from) / 2);
  };
  const integerArg = (L: LuaState, n: number) => Number(lua.lua_tointegerx(L, n, null));
  const functions: Record<string, number> = {
    osTime: cFunction(lua, (L) => {
      if (lua.lua_gettop(L) === 0) {
        lua.lua_pushinteger(L, BigInt(Math.floor(Date.now() / 1000)));
        return 1;
      }
      checkTable(lua, L, 1, 'time');
      const field = (name: string, fallback: number): number => {
        lua.lua_getfield(L, 1, name);
        const value = lua.lua_type(L, -1) === TYPE_NUMBER ? Math.trunc(lua.lua_tonumberx(L, -1, null)) : fallback;
        lua.lua_settop(L, -2);
        return value;
      };
      const date = new Date(0);
      date.setFullYear(field('year', -1), field('month', -1) - 1, field('day', -1));
      date.setHours(field('hour', 12), field('min', 0), field('sec', 0), 0);
      lua.lua_pushinteger(L, BigInt(Math.floor(date.getTime() / 1000)));
      return 1;
    }),
    osDate: cFunction(lua, (L) => {
      const top = lua.lua_gettop(L);
      let format = '%c';
      let utc = false;
      let time = new Date();
      if (top >= 1) {
        format = checkString(lua, L, 1, 'date');
        if (format.startsWith('!')) {
          utc = true;
          format = format.replace(/^!+/, '');
        }
        if (top >= 2) {
          // time.Unix gives local time, even after a "!".
          if (lua.lua_type(L, 2) !== TYPE_NUMBER) throw argTypeError(lua, L, 2, 'date', 'number');
          time = new Date(Math.trunc(lua.lua_tonumberx(L, 2, null)) * 1000);
          utc = false;
        }
        if (format.startsWith('*t')) {
          pushValue(lua, L, dateTable(time, utc));
          return 1;
        }
      }
      pushString(lua, L, strftime(time, utc, format));
      return 1;
    }),
    resourceAdd: cFunction(lua, (L) => {
      let sum = ZERO_QUANTITY;
      for (let i = 1, top = lua.lua_gettop(L); i <= top; i++)
        sum = addGoQuantities(sum, quantityArg(lua, L, i, 'resourceAdd'));
      pushString(lua, L, formatGoQuantity(sum));
      return 1;
    }),
    accuratePodRequirements: cFunction(lua, (L) => {
      if (lua.lua_gettop(L) !== 1) throw new Error('getPodRequirements only accepts one argument');
      const requirements = replicaRequirements(podSpecArg(lua, L, 'accuratePodRequirements'));
      lua.lua_settop(L, 0);
      if (requirements.resourceRequest || requirements.nodeClaim) pushValue(lua, L, requirements);
      else lua.lua_pushnil(L);
      return 1;
    }),
    getPodDependencies: cFunction(lua, (L) => {
      if (lua.lua_gettop(L) !== 2) throw new Error('getPodDependencies only accepts two argument');
      const spec = podSpecArg(lua, L, 'getPodDependencies');
      const namespace = lua.lua_type(L, 2) === TYPE_NIL ? 'default' : checkString(lua, L, 2, 'getPodDependencies');
      const dependencies = podDependencies(spec, namespace) as unknown as JsonObject[];
      lua.lua_settop(L, 0);
      // A nil Go slice marshals to null, which decodes to nil.
      if (dependencies.length > 0) pushValue(lua, L, dependencies);
      else lua.lua_pushnil(L);
      return 1;
    }),
    // strFind after its argument checks: (subject, pattern, 0-based init, plain) → true and its results.
    patternFind: cFunction(lua, (L) => {
      const init = integerArg(L, 3);
      if (lua.lua_toboolean(L, 4) !== 0) {
        const pattern = Buffer.from(readBytes(lua, L, 2));
        const at = Buffer.from(readBytes(lua, L, 1)).indexOf(pattern, init);
        lua.lua_settop(L, 0);
        lua.lua_pushboolean(L, 1);
        if (at < 0) lua.lua_pushnil(L);
        else {
          lua.lua_pushinteger(L, BigInt(at + 1));
          lua.lua_pushinteger(L, BigInt(at + pattern.length));
        }
        return lua.lua_gettop(L);
      }
      const { subject, found } = findPattern(L, init, 1);
      if (!found) return 2;
      lua.lua_settop(L, 0);
      lua.lua_pushboolean(L, 1);
      const slots = found[0];
      if (!slots) {
        lua.lua_pushnil(L);
        return 2;
      }
      lua.lua_pushinteger(L, BigInt(capturePosition(slots, 0) + 1));
      lua.lua_pushinteger(L, BigInt(capturePosition(slots, 1)));
      return 3 + pushCaptures(L, subject, slots, 2);
    }),
    // strMatch after its argument checks: (subject, pattern, 0-based offset) → true and the captures, or the match.
    patternMatch: cFunction(lua, (L) => {
      const { subject, found } = findPattern(L, integerArg(L, 3), 1);
      if (!found) return 2;
      lua.lua_settop(L, 0);
      lua.lua_pushboolean(L, 1);
      const slots = found[0];
      if (!slots) return 1;
      return 1 + pushCaptures(L, subject, slots, slots.length === 2 ? 0 : 2);
    }),
    // strGmatch: (subject, pattern) → true, the iterator and its state, every match found now.
    patternGmatch: cFunction(lua, (L) => {
      // The matches live in the host, outside the VM's memory limit, for as long as the call: an iterator per call
      // of a 1 MB subject with `()` holds a million, so all of a call's iterators together get the hook's memory.
      const room = MEMORY_MAX - gmatchBytes - Number(lua.lua_rawlen(L, 1));
      const { subject, found } = findPattern(L, 0, Math.max(1, Math.floor(room / GMATCH_MATCH_BYTES) + 1));
      if (!found) return 2;
      let bytes = subject.length;
      for (const slots of found) bytes += GMATCH_MATCH_BYTES + 8 * (slots.length - 2);
      gmatchBytes += bytes;
      if (gmatchBytes > MEMORY_MAX)
        throw new Error(
          `string.gmatch: the matches pass ${MEMORY_MAX} bytes, the memory a hook may use; match fewer or longer pieces`,
        );
      lua.lua_settop(L, 0);
      lua.lua_pushboolean(L, 1);
      lua.lua_pushcclosure(L, gmatchIterator, 0);
      const state = lua.lua_newuserdatauv(L, 8, 0);
      const id = nextGmatchId++;
      lua.module.HEAPU32[state >>> 2] = id;
      gmatchStates.set(id, { subject, found, next: 0, length: found.length, bytes });
      return 3;
    }),
    format: cFunction(lua, (L) => {
      const latin1 = (n: number) => Buffer.from(readBytes(lua, L, n)).toString('latin1');
      const args: GoFormatArg[] = [];
      for (let n = 2, top = lua.lua_gettop(L); n <= top; n++) {
        const type = lua.lua_type(L, n);
        if (type === TYPE_NUMBER) args.push({ kind: 'number', value: lua.lua_tonumberx(L, n, null) });
        else if (type === TYPE_STRING) args.push({ kind: 'string', bytes: latin1(n) });
        else if (type === TYPE_BOOLEAN) args.push({ kind: 'boolean', value: lua.lua_toboolean(L, n) !== 0 });
        else if (type === TYPE_NIL) args.push({ kind: 'nil' });
        else {
          const text = lua.luaL_tolstring(L, n, null);
          lua.lua_settop(L, -2);
          args.push({ kind: 'reference', goType: REFERENCE_GO_TYPES[luaTypeName(type)] ?? '*lua.LUserData', text });
        }
      }
      const text = luaStringFormat(latin1(1), args, MEMORY_MAX);
      pushBytes(lua, L, Buffer.from(text, 'latin1'));
      return 1;
    }),
    getResourceQuantity: cFunction(lua, (L) => {
      if (lua.lua_gettop(L) !== 1) throw new Error('getResourceQuantity only accepts one argument');
      const text = lua.lua_type(L, 1) === TYPE_STRING ? readString(lua, L, 1) : '0';
      const value = goQuantityNumber(quantityArg(lua, L, 1, 'getResourceQuantity'));
      if (value < 0) throw new Error(`int approximation unexpectedly returned a negative value: ${text}`);
      if (value === Number.POSITIVE_INFINITY)
        throw new Error(`int approximation unexpectedly returned an infinite value: ${text}`);
      lua.lua_pushnumber(L, value);
      return 1;
    }),
  };
  // strGmatchIter: the next match's captures, or its text when it has none; nothing past the last, and Go's index
  // panic for a call after that.
  const gmatchIterator = cFunction(lua, (L) => {
    const type = lua.lua_type(L, 1);
    if (type !== TYPE_USERDATA) {
      lua.luaL_where(L, 1);
      const where = lua.lua_tolstring(L, -1, null);
      throw new Error(`${where}bad argument #1 to ? (userdata expected, got ${luaTypeName(Math.max(type, TYPE_NIL))})`);
    }
    const state = gmatchStates.get(lua.module.HEAPU32[lua.lua_touserdata(L, 1) >>> 2] as number);
    lua.lua_settop(L, 0);
    if (!state) return 0;
    const index = state.next++;
    if (index === state.length) {
      // A loop that ran to the end gives back what its matches held, so a call may iterate over many subjects in turn.
      gmatchBytes -= state.bytes;
      state.found = [];
      state.subject = new Uint8Array();
      state.bytes = 0;
      return 0;
    }
    const slots = state.found[index];
    if (!slots) throw new Error(`runtime error: index out of range [${index}] with length ${state.length}`);
    return pushCaptures(L, state.subject, slots, slots.length === 2 ? 0 : 2);
  });
  return { hook, functions };
}

/** The matches of the current call's gmatch iterators, by the number their userdata holds; dropped after the call. */
const gmatchStates = new Map<
  number,
  { subject: Uint8Array; found: CaptureSlots[]; next: number; length: number; bytes: number }
>();
/** What the current call's gmatch states hold, counted as a match of two positions costs the host at least. */
let gmatchBytes = 0;
const GMATCH_MATCH_BYTES = 48;
let nextGmatchId = 1;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  wday: number;
  offsetMinutes: number;
  zone: string;
}

function dateParts(time: Date, utc: boolean): DateParts {
  if (utc) {
    return {
      year: time.getUTCFullYear(),
      month: time.getUTCMonth() + 1,
      day: time.getUTCDate(),
      hour: time.getUTCHours(),
      min: time.getUTCMinutes(),
      sec: time.getUTCSeconds(),
      wday: time.getUTCDay(),
      offsetMinutes: 0,
      zone: 'UTC',
    };
  }
  const zone =
    new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
      .formatToParts(time)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
  return {
    year: time.getFullYear(),
    month: time.getMonth() + 1,
    day: time.getDate(),
    hour: time.getHours(),
    min: time.getMinutes(),
    sec: time.getSeconds(),
    wday: time.getDay(),
    offsetMinutes: -time.getTimezoneOffset(),
    zone: zone === 'GMT' ? 'UTC' : zone,
  };
}

/** os.date("*t"): gopher-lua leaves yday at 0 and isdst false. */
function dateTable(time: Date, utc: boolean): JsonObject {
  const p = dateParts(time, utc);
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    hour: p.hour,
    min: p.min,
    sec: p.sec,
    wday: p.wday + 1,
    yday: 0,
    isdst: false,
  };
}

/** oslib_safe's strftime: each C flag maps to a Go layout; unknown flags are kept as written. */
function strftime(time: Date, utc: boolean, format: string): string {
  const p = dateParts(time, utc);
  const two = (n: number) => String(n).padStart(2, '0');
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  const offset = `${p.offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(p.offsetMinutes) / 60))}${two(Math.abs(p.offsetMinutes) % 60)}`;
  const flags: Record<string, () => string> = {
    // Karmada's table maps %a to the Go layout "mon", which is not a layout element: it prints "mon" as is.
    a: () => 'mon',
    A: () => WEEKDAYS[p.wday] as string,
    b: () => (MONTHS[p.month - 1] as string).slice(0, 3),
    B: () => MONTHS[p.month - 1] as string,
    c: () =>
      `${two(p.day)} ${(MONTHS[p.month - 1] as string).slice(0, 3)} ${two(p.year % 100)} ${two(p.hour)}:${two(p.min)} ${p.zone}`,
    d: () => two(p.day),
    F: () => `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}`,
    H: () => two(p.hour),
    I: () => two(hour12),
    m: () => two(p.month),
    M: () => two(p.min),
    p: () => (p.hour < 12 ? 'AM' : 'PM'),
    P: () => (p.hour < 12 ? 'am' : 'pm'),
    S: () => two(p.sec),
    x: () => `${two(p.hour)}/${two(p.min)}/${two(p.sec)}`,
    X: () => `${two(p.hour)}:${two(p.min)}:${two(p.sec)}`,
    y: () => two(p.year % 100),
    Y: () => String(p.year).padStart(4, '0'),
    z: () => offset,
    Z: () => p.zone,
    w: () => String(p.wday),
  };
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c !== '%' || i === format.length - 1) {
      out += c;
      continue;
    }
    const flag = format[++i] as string;
    if (flag === '%') out += '%';
    else out += flags[flag]?.() ?? `%${flag}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The sandbox

/**
 * Run once in each new engine with the host functions as its argument; returns collectgarbage, which the sandbox
 * then hides from scripts. It leaves exactly the globals of Karmada's state: gopher-lua's base, table, string,
 * math libraries, the safe os and package libraries, and error stubs for the functions setLib takes away.
 */
const PRELUDE = `
local native = ...
local collect = collectgarbage
local error, type, select, tostring, next = error, type, select, tostring, next
local getmetatable, load = getmetatable, load
local floor, ceil, huge, mtype, tointeger = math.floor, math.ceil, math.huge, math.type, math.tointeger
local sfind, ssub, sformat, srep, tconcat, tunpack = string.find, string.sub, string.format, string.rep, table.concat, table.unpack
local tinsert, tremove, tsort, rawSelect = table.insert, table.remove, table.sort, select
local minint = math.mininteger

-- gopher-lua's argument checks (auxlib.go) and their text: the function unquoted, nil for a missing argument.
-- CheckInt takes a number only, never a numeric string, and converts it as Go's int() does: toward zero, and
-- math.MinInt64 on amd64 for what int64 cannot hold. Each check is called by a library function the script called.
local function goInt64(v)
  if v ~= v or v >= 2^63 or v < -2^63 then return minint end
  return v >= 0 and floor(v) or ceil(v)
end
local function badArgument(fn, n, message)
  error('bad argument #' .. n .. ' to ' .. fn .. ' (' .. message .. ')', 4)
end
local function checkType(fn, n, v, expected)
  if type(v) ~= expected then badArgument(fn, n, expected .. ' expected, got ' .. type(v)) end
  return v
end
local function checkInt(fn, n, v)
  if type(v) ~= 'number' then badArgument(fn, n, 'number expected, got ' .. type(v)) end
  return goInt64(v)
end
local function optInt(fn, n, v, default)
  if v == nil then return default end
  if type(v) ~= 'number' then badArgument(fn, n, 'number expected, got ' .. type(v)) end
  return goInt64(v)
end

-- base: gopher-lua's set (unpack, no rawlen or warn); print goes nowhere, as a controller's stdout does.
_VERSION = 'Lua 5.1'
-- gopher-lua's table length is the last non-nil slot of its array part, which holds every positive integer key
-- below MaxArrayIndex: the largest such key with a value. getn and maxn both read it; the # operator stays Lua 5.4's.
local MAX_ARRAY_INDEX = 67108864
local function arrayLength(t)
  local n = 0
  for k in next, t do
    if mtype(k) == 'integer' and k > n and k < MAX_ARRAY_INDEX then n = k end
  end
  return n
end
unpack = function(t, i, j)
  checkType('unpack', 1, t, 'table')
  return tunpack(t, optInt('unpack', 2, i, 1), optInt('unpack', 3, j, #t))
end
-- baseSelect: a number is truncated and clamped to the arguments; a string must be '#'.
_G.select = function(n, ...)
  local count = rawSelect('#', ...)
  if type(n) == 'number' then
    local i = goInt64(n)
    if i < 0 then i = count + 1 + i elseif i > count + 1 then i = count + 1 end
    if i < 1 then error('bad argument #1 to select (index out of range)', 2) end
    return rawSelect(i, ...)
  end
  if type(n) ~= 'string' then error('bad argument #1 to select (number or string expected, got ' .. type(n) .. ')', 2) end
  if n ~= '#' then error("bad argument #1 to select (invalid string '" .. n .. "')", 2) end
  return count
end
rawlen, warn = nil, nil
print = function(...) end
_printregs = function() end

-- tonumber: gopher-lua's baseToNumber. Only spaces, tabs and newlines are trimmed. Text with a '.' is read by Go's
-- ParseFloat (no exponent-only or inf forms; out of range is nil); any other by ParseInt in the base, hexadecimal
-- after a leading 0x when no base is given: no exponent, no sign before the 0x, nil outside int64. The value is a
-- float64 there, so an integer is rounded as one.
local tonum, sbyte, slower, smatch = tonumber, string.byte, string.lower, string.match
local function isSpace(b) return b == 32 or b == 9 or b == 10 end
local function digit(b)
  if b >= 48 and b <= 57 then return b - 48 end
  if b >= 97 and b <= 122 then return b - 87 end
  if b >= 65 and b <= 90 then return b - 55 end
  return 99
end
local function goInt(t, base)
  if base < 2 or base > 36 then return nil end
  local i, negative = 1, false
  local first = ssub(t, 1, 1)
  if first == '+' or first == '-' then i, negative = 2, first == '-' end
  if i > #t then return nil end
  -- Accumulated as a negative number, whose range holds the magnitude of math.mininteger.
  local n = 0
  for k = i, #t do
    local d = digit(sbyte(t, k))
    if d >= base then return nil end
    if n < (minint + d + base - 1) // base then return nil end
    n = n * base - d
  end
  if not negative then
    if n == minint then return nil end
    n = -n
  end
  local f = n + 0.0
  return tointeger(f) or f
end
local function goUnderscores(t, digits)
  -- Go takes '_' between two digits only.
  if not sfind(t, '_', 1, true) then return t end
  if sfind(t, '^_') or sfind(t, '_$') or sfind(t, '[^' .. digits .. ']_') or sfind(t, '_[^' .. digits .. ']') then
    return nil
  end
  local parts, from = {}, 1
  while true do
    local at = sfind(t, '_', from, true)
    if not at then break end
    parts[#parts + 1] = ssub(t, from, at - 1)
    from = at + 1
  end
  parts[#parts + 1] = ssub(t, from)
  return tconcat(parts)
end
local function goFloat(t)
  local hex = sfind(t, '^[+-]?0[xX]') ~= nil
  t = goUnderscores(t, hex and '%x' or '%d')
  if not t then return nil end
  local whole, fraction
  if hex then
    whole, fraction = smatch(t, '^[+-]?0[xX](%x*)%.(%x*)[pP][+-]?%d+$')
  else
    whole, fraction = smatch(t, '^[+-]?(%d*)%.(%d*)$')
    if not whole then whole, fraction = smatch(t, '^[+-]?(%d*)%.(%d*)[eE][+-]?%d+$') end
  end
  if not whole or #whole + #fraction == 0 then return nil end
  local n = tonum(t)
  if n == nil or n ~= n or n == huge or n == -huge then return nil end
  return n
end
tonumber = function(...)
  local v, base = ...
  if select('#', ...) == 0 then error('bad argument #1 to tonumber (value expected)', 2) end
  local noBase = base == nil
  if noBase then
    base = 10
  elseif type(base) ~= 'number' then
    error('bad argument #2 to tonumber (number expected, got ' .. type(base) .. ')', 2)
  else
    base = base >= 0 and floor(base) or ceil(base)
  end
  if type(v) == 'number' then return v end
  if type(v) ~= 'string' then return nil end
  local from, to = 1, #v
  while from <= to and isSpace(sbyte(v, from)) do from = from + 1 end
  while to >= from and isSpace(sbyte(v, to)) do to = to - 1 end
  local t = ssub(v, from, to)
  if sfind(t, '.', 1, true) then return goFloat(t) end
  if noBase and slower(ssub(t, 1, 2)) == '0x' then return goInt(ssub(t, 3), 16) end
  return goInt(t, base)
end

-- table: gopher-lua's tablelib, getn and maxn of 5.1; none of 5.4's move, pack, unpack. Positions are CheckInt's:
-- insert puts a value at a position past the end or below 1 as a plain assignment, remove takes the last element
-- for a position below 1 and nothing past the end, where Lua 5.4 raises 'position out of bounds'.
table.getn = function(t) return arrayLength(checkType('getn', 1, t, 'table')) end
table.maxn = function(t) return arrayLength(checkType('maxn', 1, t, 'table')) end
table.insert = function(...)
  local t, pos, v = ...
  checkType('insert', 1, t, 'table')
  local n = rawSelect('#', ...)
  if n == 1 then error('wrong number of arguments', 2) end
  if n == 2 then return tinsert(t, pos) end
  pos = checkInt('insert', 2, pos)
  local len = #t
  if pos > len or pos < 1 then t[pos] = v return end
  for k = len, pos, -1 do t[k + 1] = t[k] end
  t[pos] = v
end
table.remove = function(...)
  local t, pos = ...
  checkType('remove', 1, t, 'table')
  pos = rawSelect('#', ...) == 1 and -1 or checkInt('remove', 2, pos)
  local len = #t
  if len == 0 or pos > len then return nil end
  if pos == len or pos < 1 then
    local last = t[len]
    t[len] = nil
    return last
  end
  return tremove(t, pos)
end
-- Bounds are clamped to the table rather than read as nil slots; with only a start, one outside it gives ''.
table.concat = function(...)
  local t, sep, i, j = ...
  checkType('concat', 1, t, 'table')
  if sep == nil then sep = '' else checkType('concat', 2, sep, 'string') end
  local len = #t
  i, j = optInt('concat', 3, i, 1), optInt('concat', 4, j, len)
  if rawSelect('#', ...) == 3 and (i > len or i < 1) then return '' end
  if i > len then i = len end
  if i < 1 then i = 1 end
  if j > len then j = len end
  if i > j then return '' end
  for k = i, j do
    local kind = type(t[k])
    if kind ~= 'string' and kind ~= 'number' then
      error('invalid value (' .. kind .. ') at index ' .. k .. ' in table for concat', 2)
    end
  end
  return tconcat(t, sep, i, j)
end
table.sort = function(...)
  local t, less = ...
  checkType('sort', 1, t, 'table')
  if rawSelect('#', ...) ~= 1 then checkType('sort', 2, less, 'function') end
  return tsort(t, less)
end
table.move, table.pack, table.unpack = nil, nil, nil

-- math: gopher-lua's set.
local m = math
-- gopher-lua's math functions take float64 arguments (CheckNumber) and read no more of them than Lua 5.1's did: log
-- has no base and atan no second argument, and mod is the % operator (luaModulo), not fmod. On floats, fmod(5, 0)
-- and 5 % 0 are NaN, where Lua 5.4's integer versions raise an error.
local rawLog, rawAtan, rawFmod = m.log, m.atan, m.fmod
local function checkNumber(fn, n, v)
  local x = tonum(v)
  if x == nil then error('bad argument #' .. n .. ' to ' .. fn .. ' (number expected, got ' .. type(v) .. ')', 3) end
  return x + 0.0
end
m.pow = function(x, y) return x ^ y end
m.mod = function(x, y) return checkNumber('mod', 1, x) % checkNumber('mod', 2, y) end
m.fmod = function(x, y) return rawFmod(checkNumber('fmod', 1, x), checkNumber('fmod', 2, y)) end
m.log = function(x) return rawLog(checkNumber('log', 1, x)) end
m.atan = function(x) return rawAtan(checkNumber('atan', 1, x)) end
m.atan2 = function(y, x) return rawAtan(y, x) end
m.log10 = function(x) return rawLog(x, 10) end
m.cosh = function(x) return (m.exp(x) + m.exp(-x)) / 2 end
m.sinh = function(x) return (m.exp(x) - m.exp(-x)) / 2 end
m.tanh = function(x) local a, b = m.exp(x), m.exp(-x) return (a - b) / (a + b) end
m.ldexp = function(x, e) return x * 2.0 ^ e end
m.frexp = function(x)
  if x == 0 or x ~= x or x == huge or x == -huge then return x, 0 end
  local e = floor(rawLog(m.abs(x), 2)) + 1
  local f = x / 2.0 ^ e
  if m.abs(f) >= 1 then f, e = f / 2, e + 1 elseif m.abs(f) < 0.5 then f, e = f * 2, e - 1 end
  return f, e
end
m.maxinteger, m.mininteger, m.tointeger, m.type, m.ult = nil, nil, nil, nil, nil
-- gopher-lua's math.huge is math.MaxFloat64, not infinity: it compares below 1/0, prints as a number and encodes to JSON.
m.huge = 1.7976931348623157e308

-- string: Karmada's string_safe. The table is changed in place: it is also the strings' metatable __index.
local s = string
local MAX = 1000000
local TOO_LONG = 'string length %d exceeds the maximum allowed input string length %d in Karmada lua string lib, please check your lua script.'
local function checkLength(v)
  if type(v) == 'string' and #v > MAX then error(sformat(TOO_LONG, #v, MAX), 3) end
end
-- CheckString's error, raised at the script's call.
local function checkStringArg(fn, n, v)
  if type(v) ~= 'string' and type(v) ~= 'number' then
    error('bad argument #' .. n .. ' to ' .. fn .. ' (string expected, got ' .. type(v) .. ')', 3)
  end
end
-- A subject or pattern as strFind, strMatch and strGmatch take it: CheckString, then the length limit.
local function checkedText(fn, n, v)
  if type(v) ~= 'string' and type(v) ~= 'number' then
    error('bad argument #' .. n .. ' to ' .. fn .. ' (string expected, got ' .. type(v) .. ')', 3)
  end
  v = '' .. v
  if #v > MAX then error(sformat(TOO_LONG, #v, MAX), 3) end
  return v
end
-- Positions are CheckInt's (a number only, truncated toward zero) and, out of range, clamped to the string rather
-- than refused. luaIndex2StringIndex for a start: 0-based, a negative one counted from the end, never below 0.
local function startIndex(len, i)
  if i ~= 0 then i = i - 1 end
  if i < 0 then i = len + i + 1 end
  return i < 0 and 0 or i
end
-- find, match and gmatch match as gopher-lua's pm package does (gopherPatterns.ts, run by the host): its grammar
-- differs from Lua 5.4's. The host answers true and the results, or false and pm's error, raised here at the
-- script's line as L.RaiseError places it.
local patternFind, patternMatch, patternGmatch = native.patternFind, native.patternMatch, native.patternGmatch
local function patternResults(ok, ...)
  if not ok then error((...), 2) end
  return ...
end
-- An empty pattern gives 1, 0 wherever init points; plain is read only from a call of exactly four arguments. A plain
-- find from past the end fails as Go's slicing does there.
s.find = function(...)
  local subject, pattern, init, plain = ...
  subject = checkedText('find', 1, subject)
  pattern = checkedText('find', 2, pattern)
  if pattern == '' then return 1, 0 end
  init = startIndex(#subject, optInt('find', 3, init, 1))
  plain = rawSelect('#', ...) == 4 and plain ~= nil and plain ~= false
  if plain and init > #subject then
    error(sformat('runtime error: slice bounds out of range [%d:%d]', init, #subject), 0)
  end
  return patternResults(patternFind(subject, pattern, init, plain))
end
-- No match gives no value at all (so table.insert(t, s:match(p)) is an argument short there).
s.match = function(subject, pattern, init)
  subject = checkedText('match', 1, subject)
  pattern = checkedText('match', 2, pattern)
  local offset = optInt('match', 3, init, 1)
  if offset < 0 then offset = #subject + offset + 1 end
  offset = offset < 1 and 0 or offset - 1
  return patternResults(patternMatch(subject, pattern, offset))
end
-- Every match is found when gmatch is called (so a bad pattern fails there); the iterator is handed its state, a
-- userdata, by the generic for and fails without it.
s.gmatch = function(subject, pattern)
  subject = checkedText('gmatch', 1, subject)
  pattern = checkedText('gmatch', 2, pattern)
  return patternResults(patternGmatch(subject, pattern))
end
local rawSub, rawByte, rawChar, rawLen, rawLower, rawUpper, rawReverse = s.sub, s.byte, s.char, s.len, s.lower, s.upper, s.reverse
s.sub = function(str, i, j)
  checkStringArg('sub', 1, str)
  str = '' .. str
  checkLength(str)
  local len = #str
  local from, to = startIndex(len, checkInt('sub', 2, i)), optInt('sub', 3, j, -1)
  if to < 0 then to = len + to + 1 end
  if to > len then to = len end
  if from >= len or to < from then return '' end
  return rawSub(str, from + 1, to)
end
-- With just a position, one byte; with none, or with an end (even nil), a range that defaults to the whole string.
s.byte = function(...)
  local str, i, j = ...
  checkStringArg('byte', 1, str)
  str = '' .. str
  checkLength(str)
  local len = #str
  local from, to = optInt('byte', 2, i, 1) - 1, optInt('byte', 3, j, -1)
  if from < 0 then from = len + from + 1 end
  if to < 0 then to = len + to + 1 end
  if rawSelect('#', ...) == 2 then
    if from < 0 or from >= len then return end
    return rawByte(str, from + 1)
  end
  if from < 0 then from = 0 end
  if to > len then to = len end
  if to < 0 or to <= from or from >= len then return end
  return rawByte(str, from + 1, to)
end
-- Each code is Go's uint8(int): truncated, then taken modulo 256.
s.char = function(...)
  local codes = { ... }
  for k = 1, rawSelect('#', ...) do codes[k] = checkInt('char', k, codes[k]) % 256 end
  return rawChar(tunpack(codes))
end
s.len = function(str)
  checkStringArg('len', 1, str)
  return rawLen(str)
end
local function checkedString(name, f)
  return function(str)
    checkStringArg(name, 1, str)
    checkLength(str)
    return f(str)
  end
end
s.lower, s.upper, s.reverse = checkedString('lower', rawLower), checkedString('upper', rawUpper), checkedString('reverse', rawReverse)
s.gfind = s.gmatch
local function refuse(name)
  return function()
    error('The Lua function string.' .. name .. ' is not supported by Karmada. If you believe this function is essential for your use case, please submit an issue to let us know why you need it.', 2)
  end
end
s.gsub, s.rep, s.dump = refuse('gsub'), refuse('rep'), refuse('dump')
s.pack, s.packsize, s.unpack = nil, nil, nil
-- strFormat: the format and the values go to Go's fmt.Sprintf (goSprintf.ts), not C's printf.
local nativeFormat = native.format
s.format = function(fmt, ...)
  checkStringArg('format', 1, fmt)
  checkLength(fmt)
  return nativeFormat(tostring(fmt), ...)
end

-- os: oslib_safe offers time and date only.
os = { time = native.osTime, date = native.osDate }

-- package: loadlib_safe. require finds what is loaded already or what package.preload holds (only kube). Each call
-- has its own package tables (see globals below); these are the current call's.
local loaded, loaders, callGlobals
local kube = { resourceAdd = native.resourceAdd, accuratePodRequirements = native.accuratePodRequirements,
  getPodDependencies = native.getPodDependencies, getResourceQuantity = native.getResourceQuantity }
local function openKube()
  local mod = {}
  for k, v in next, kube do mod[k] = v end
  return mod
end
local function loadlib() error('loadlib is not supported', 2) end
-- loLoaderPreload reads package.preload through the globals the script sees.
local function preloadLoader(name)
  local package = callGlobals.package
  local preload = type(package) == 'table' and package.preload
  if type(preload) ~= 'table' then error('package.preload must be a table') end
  local found = preload[name]
  if found == nil then return "no field package.preload['" .. name .. "']" end
  return found
end
local LOADING = {}
require = function(name)
  if type(name) ~= 'string' and type(name) ~= 'number' then
    error('bad argument #1 to require (string expected, got ' .. type(name) .. ')', 2)
  end
  name = tostring(name)
  local mod = loaded[name]
  if mod then
    if mod == LOADING then error('loop or previous error loading module: ' .. name, 2) end
    return mod
  end
  local messages, open = {}, nil
  for i = 1, huge do
    local loader = loaders[i]
    if loader == nil then error('module ' .. name .. ' not found:\\n\\t' .. tconcat(messages, '\\n\\t') .. ', ', 2) end
    local found = loader(name)
    if type(found) == 'function' then open = found break end
    if type(found) == 'string' then messages[#messages + 1] = found end
  end
  loaded[name] = LOADING
  local result = open(name)
  local now = loaded[name]
  if result ~= nil and now == LOADING then loaded[name] = result return result end
  if now == LOADING then loaded[name] = true return true end
  return now
end

-- setLib's list: each becomes a function that raises.
for _, name in next, { 'collectgarbage', 'dofile', 'getfenv', 'getmetatable', 'load', 'loadfile', 'loadstring',
    'rawequal', 'rawget', 'rawset', 'setfenv', 'setmetatable', 'module', 'newproxy' } do
  _G[name] = function()
    error('<string>:1: call function ' .. name .. ' is not supported in karmada customized resourceinterpreter.', 0)
  end
end

-- Each call's globals: a plain table holding what the sandbox's hold, as gopher-lua's one globals table is plain, so
-- an assignment (even of nil, as in \`error = status.error\`) replaces a built-in for the rest of the call. The library
-- tables are the call's own copies too, and the strings' metatable indexes the call's string table: a script that
-- changes string.upper or math.floor changes them for itself only, never for its next call or another script's.
-- Copies are made by a table constructor compiled for each library's keys, which sizes the table once: a loop over
-- next would grow it step by step, several times slower, on every call.
local function copier(t)
  local fields = {}
  for k in next, t do fields[#fields + 1] = sformat('[%q] = b[%q]', k, k) end
  return load('local b = ... return function() return { ' .. tconcat(fields, ', ') .. ' } end', '=copier', 't')(t)
end
local stringMeta = getmetatable('')
local fresh, pristine = {}, {}
for _, name in next, { '_G', 'string', 'table', 'math', 'os' } do
  local t = {}
  for k, v in next, _G[name] do t[k] = v end
  fresh[name], pristine[name] = copier(t), t
end
local freshGlobals, freshString, freshTable, freshMath, freshOs = fresh._G, fresh.string, fresh.table, fresh.math, fresh.os
local function globals()
  local env, str, tbl, mth, sys = freshGlobals(), freshString(), freshTable(), freshMath(), freshOs()
  env._G, env.string, env.table, env.math, env.os = env, str, tbl, mth, sys
  stringMeta.__index = str
  loaded = { _G = env, table = tbl, string = str, math = mth, os = sys }
  loaders = { preloadLoader }
  env.package = { loadlib = loadlib, preload = { kube = openKube }, loaders = loaders, loaded = loaded }
  callGlobals = env
  return env
end
-- Run after each call, so that what the call made stays collectable while its engine waits for the next one.
local pristineString = pristine.string
local function release()
  loaded, loaders, callGlobals = nil, nil, nil
  stringMeta.__index = pristineString
end
return collect, globals, release
`;

interface ScriptEngine {
  engine: LuaEngine;
  L: LuaState;
  /** Registry reference of the compiled chunk, or the compile error every call reports. */
  chunk: number | { error: string };
  collect: number;
  /** Registry reference of the prelude's function that makes one call's globals. */
  globals: number;
  /** Registry reference of the prelude's function that lets go of the last call's globals. */
  release: number;
}

const engines = new Map<string, ScriptEngine>();

/**
 * Lua 5.4 seeds its string hashes from the clock when a state is made, so pairs() would visit a table's keys in
 * another order in every process. Made at a fixed time, every engine hashes alike and a script's output repeats.
 */
function atFixedClock<T>(make: () => T): T {
  const now = Date.now;
  Date.now = () => 0;
  try {
    return make();
  } finally {
    Date.now = now;
  }
}

function newEngine(
  { lua, lib }: { lua: LuaWasm; lib: typeof import('wasmoon') },
  functions: Record<string, number>,
): { engine: LuaEngine; L: LuaState; collect: number; globals: number; release: number } {
  const engine = atFixedClock(
    () =>
      new lib.LuaEngine(lua, {
        openStandardLibs: false,
        injectObjects: false,
        enableProxy: false,
        traceAllocations: true,
      }),
  );
  for (const library of [lib.LuaLibraries.Base, lib.LuaLibraries.Table, lib.LuaLibraries.String, lib.LuaLibraries.Math])
    engine.global.loadLibrary(library);
  engine.global.setMemoryMax(MEMORY_MAX);
  const L = engine.global.address;
  lua.lua_settop(L, 0);
  if (lua.luaL_loadbufferx(L, PRELUDE, lua.module.lengthBytesUTF8(PRELUDE), '=prelude', 't') !== STATUS_OK)
    throw new Error(`Lua sandbox prelude: ${lua.lua_tolstring(L, -1, null)}`);
  lua.lua_createtable(L, 0, Object.keys(functions).length);
  for (const [name, pointer] of Object.entries(functions)) {
    lua.lua_pushcclosure(L, pointer, 0);
    lua.lua_setfield(L, -2, name);
  }
  if (lua.lua_pcallk(L, 1, 3, 0, 0, null) !== STATUS_OK)
    throw new Error(`Lua sandbox prelude: ${lua.lua_tolstring(L, -1, null)}`);
  const release = lua.luaL_ref(L, lib.LUA_REGISTRYINDEX);
  const globals = lua.luaL_ref(L, lib.LUA_REGISTRYINDEX);
  const collect = lua.luaL_ref(L, lib.LUA_REGISTRYINDEX);
  lua.lua_settop(L, 0);
  return { engine, L, collect, globals, release };
}

/** The script's engine, compiled on first use; the least recently used one is closed past CACHE_SIZE. */
function engineFor(script: string): ScriptEngine {
  const cached = engines.get(script);
  if (cached) {
    engines.delete(script);
    engines.set(script, cached);
    return cached;
  }
  const { lua, natives: n, lib } = runtime();
  const { engine, L, collect, globals, release } = newEngine({ lua, lib }, n.functions);
  let chunk: ScriptEngine['chunk'];
  const source = withFiveOneEscapes(script);
  const status = lua.luaL_loadbufferx(L, source, lua.module.lengthBytesUTF8(source), CHUNK_NAME, 't');
  const refused = status === STATUS_OK ? fiveFourOnlySyntax(script) : undefined;
  if (refused) chunk = { error: `${CHUNK_NAME.slice(1)}:${refused.line}: ${refused.message}` };
  else if (status === STATUS_OK) chunk = lua.luaL_ref(L, lib.LUA_REGISTRYINDEX);
  else chunk = { error: lua.lua_tolstring(L, -1, null) };
  lua.lua_settop(L, 0);
  const entry: ScriptEngine = { engine, L, chunk, collect, globals, release };
  engines.set(script, entry);
  if (engines.size > CACHE_SIZE) {
    const [oldest, evicted] = engines.entries().next().value as [string, ScriptEngine];
    engines.delete(oldest);
    evicted.engine.global.close();
  }
  return entry;
}

let checker: { engine: LuaEngine; L: LuaState } | undefined;

/** Compiles the script without running it: undefined when it is valid Lua, else the error and its line. */
export function checkLuaScript(script: string): { line: number; message: string } | undefined {
  const { lua, lib } = runtime();
  if (!checker) {
    const engine = new lib.LuaEngine(lua, {
      openStandardLibs: false,
      injectObjects: false,
      enableProxy: false,
      traceAllocations: true,
    });
    engine.global.setMemoryMax(MEMORY_MAX);
    checker = { engine, L: engine.global.address };
  }
  const { L } = checker;
  lua.lua_settop(L, 0);
  const source = withFiveOneEscapes(script);
  const status = lua.luaL_loadbufferx(L, source, lua.module.lengthBytesUTF8(source), CHUNK_NAME, 't');
  const text = status === STATUS_OK ? undefined : lua.lua_tolstring(L, -1, null);
  lua.lua_settop(L, 0);
  if (text === undefined) return fiveFourOnlySyntax(script);
  const located = /^<string>:(\d+): ([\s\S]*)$/.exec(text);
  return located ? { line: Number(located[1]), message: located[2] as string } : { line: 0, message: text };
}

function errorText(lua: LuaWasm, L: LuaState, status: number): string {
  if (timedOut) return 'context deadline exceeded';
  if (status === STATUS_MEMORY) return 'not enough memory';
  const type = lua.lua_type(L, -1);
  if (type === TYPE_STRING) return readString(lua, L, -1);
  if (type === TYPE_NUMBER) return lua.lua_tolstring(L, -1, null);
  return lua.luaL_tolstring(L, -1, null);
}

/**
 * VM.RunScript: runs the script's chunk again (so its top-level definitions are fresh, as DoString makes them),
 * then calls the global function fn with args, all under one deadline. Returns exactly nResults values.
 */
/**
 * Scripts that ran out of time or memory, by text, with why and when: for a minute they fail at once. A pull request's
 * script that spins for its full second on every object would otherwise hold a render for a second per template; a
 * fixed script is new text and runs at once, and one that was only slow on a busy machine runs again a minute later.
 */
const tripped = new Map<string, { why: string; at: number }>();
const TRIPPED_LIMIT = 256;
const TRIPPED_FOR_MS = 60_000;

export function callLuaFunction(script: string, fn: string, args: readonly unknown[], nResults: number): LuaValue[] {
  const earlier = tripped.get(script);
  if (earlier && Date.now() - earlier.at < TRIPPED_FOR_MS)
    throw new LuaHookError(
      `${earlier.why} (an earlier call of this script; it is not run again for a minute, or until it changes)`,
      fn,
    );
  try {
    return callOnce(script, fn, args, nResults);
  } catch (err) {
    // A result nested deeper than the host's stack, or too long for an array: the script's failure, not the render's.
    if (err instanceof RangeError) throw new LuaHookError(`the result cannot be read: ${err.message}`, fn);
    if (
      err instanceof LuaHookError &&
      (err.message === 'context deadline exceeded' || err.message === 'not enough memory')
    ) {
      if (tripped.size >= TRIPPED_LIMIT) tripped.clear();
      tripped.set(script, { why: err.message, at: Date.now() });
    }
    throw err;
  }
}

function callOnce(script: string, fn: string, args: readonly unknown[], nResults: number): LuaValue[] {
  const { lua, natives: n, lib } = runtime();
  const entry = engineFor(script);
  const { L, chunk } = entry;
  if (typeof chunk !== 'number') throw new LuaHookError(chunk.error, fn);
  lua.lua_settop(L, 0);
  timedOut = false;
  deadline = Date.now() + CALL_TIMEOUT_MS;
  lua.lua_sethook(L, n.hook, MASK_COUNT, HOOK_EVERY);
  try {
    // Each call gets globals of its own, a copy of the sandbox's: what one call leaves in a global is gone by the
    // next, so a result never depends on the calls before it (a replay makes other calls than a sync).
    lua.lua_rawgeti(L, lib.LUA_REGISTRYINDEX, BigInt(entry.globals)); // [globals]
    let status = lua.lua_pcallk(L, 0, 1, 0, 0, null); // [env]
    if (status !== STATUS_OK) throw new LuaHookError(errorText(lua, L, status), fn);
    lua.lua_rawgeti(L, lib.LUA_REGISTRYINDEX, BigInt(chunk)); // [env, chunk]
    lua.lua_pushvalue(L, 1); // [env, chunk, env]
    lua.lua_setupvalue(L, -2, 1); // the chunk's _ENV: [env, chunk]
    status = lua.lua_pcallk(L, 0, 0, 0, 0, null); // [env]
    if (status !== STATUS_OK) throw new LuaHookError(errorText(lua, L, status), fn);
    const type = lua.lua_getfield(L, 1, fn); // [env, fn]
    if (type === TYPE_NIL) throw new LuaHookError(`not found function ${fn}`, fn);
    if (type !== TYPE_FUNCTION) throw new LuaHookError(`${fn} is not a function: ${luaTypeName(type)}`, fn);
    for (const arg of args) {
      try {
        pushValue(lua, L, arg);
      } catch (err) {
        if (err instanceof LuaConvertError) throw new LuaHookError(err.message, fn);
        throw err;
      }
    }
    status = lua.lua_pcallk(L, args.length, nResults, 0, 0, null);
    if (status !== STATUS_OK) throw new LuaHookError(errorText(lua, L, status), fn);
    const results: LuaValue[] = [];
    for (let i = 1; i <= nResults; i++) results.push(readValue(lua, L, i + 1));
    return results;
  } finally {
    gmatchStates.clear();
    gmatchBytes = 0;
    lua.lua_sethook(L, null, 0, 0);
    deadline = Number.POSITIVE_INFINITY;
    lua.lua_settop(L, 0);
    lua.lua_rawgeti(L, lib.LUA_REGISTRYINDEX, BigInt(entry.release));
    lua.lua_pcallk(L, 0, 0, 0, 0, null);
    lua.lua_settop(L, 0);
    if (entry.engine.global.getMemoryUsed() > COLLECT_ABOVE) {
      lua.lua_rawgeti(L, lib.LUA_REGISTRYINDEX, BigInt(entry.collect));
      lua.lua_pcallk(L, 0, 0, 0, 0, null);
      lua.lua_settop(L, 0);
    }
  }
}
