// How the VM turns a float into text. gopher-lua prints a number with Go's fmt (LNumber.String), Lua 5.4 with C's
// "%.14g"; a hook's concatenations end up in manifests, so the VM is made to print floats as gopher-lua does.
import { formatFloat64 } from '../../yaml/goYamlV2.ts';

/** LNumber.String: an integral value int64 holds as an integer, any other with fmt's %v (shortest digits, %g style). */
export function formatGoNumber(n: number): string {
  // int64(v) on amd64 is exact from -2^63 up to, not including, 2^63; past that, and for NaN and infinities, it is
  // math.MinInt64, which isInteger then finds unequal to v.
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63) return BigInt(n).toString();
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  // Not 0 (an integer): strconv's 'g' with the shortest digits.
  return formatFloat64(n);
}

/** Where a patched wasm module asks the host to print a float. */
export interface FloatTextRoute {
  bytes: Uint8Array<ArrayBuffer>;
  /** The import the VM's float printing now calls, with the signature of snprintf(buff, size, format, args). */
  importName: string;
  /** The address of "%.14g" in the module's memory: the format argument of exactly the calls that were rerouted. */
  formatAddress: number;
}

const SECTION_IMPORT = 2;
const SECTION_FUNCTION = 3;
const SECTION_CODE = 10;
const SECTION_DATA = 11;
const OP_I32_CONST = 0x41;
const OP_LOCAL_GET = 0x20;
const OP_I32_ADD = 0x6a;
const OP_CALL = 0x10;
const OP_END = 0x0b;
/** An import the sandbox never reaches (os.date is the host's, the C os library is not opened) that has snprintf's signature. */
const BORROWED_IMPORT = 'strftime';

class WasmReader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}
  byte(): number {
    const b = this.bytes[this.at++];
    if (b === undefined) throw new Error('unexpected end of the wasm module');
    return b;
  }
  unsigned(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return result;
    }
  }
  signed(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return b & 0x40 ? result - 2 ** shift : result;
    }
  }
  name(): string {
    const length = this.unsigned();
    const text = Buffer.from(this.bytes.subarray(this.at, this.at + length)).toString('utf8');
    this.at += length;
    return text;
  }
}

/**
 * lobject.c's tostringbuff calls snprintf(buff, 44, "%.14g", n) (inlined in more than one place). Each such call is
 * pointed at an import instead, so the host prints the float; the call's LEB128 operand keeps its byte length, padded,
 * so no offset in the module moves. Integers keep "%lld", which prints as Go prints an int64.
 */
export function routeFloatTextToHost(wasm: Uint8Array): FloatTextRoute {
  const sections = new Map<number, { start: number; end: number }>();
  const reader = new WasmReader(wasm, 8);
  while (reader.at < wasm.length) {
    const id = reader.byte();
    const size = reader.unsigned();
    sections.set(id, { start: reader.at, end: reader.at + size });
    reader.at += size;
  }
  const section = (id: number) => {
    const found = sections.get(id);
    if (!found) throw new Error(`the Lua wasm module has no section ${id}`);
    reader.at = found.start;
    return found;
  };

  section(SECTION_IMPORT);
  const functionTypes: number[] = [];
  let borrowed: number | undefined;
  for (let i = 0, count = reader.unsigned(); i < count; i++) {
    reader.name();
    const name = reader.name();
    const kind = reader.byte();
    if (kind !== 0) throw new Error('the Lua wasm module imports something other than functions');
    if (name === BORROWED_IMPORT) borrowed = functionTypes.length;
    functionTypes.push(reader.unsigned());
  }
  if (borrowed === undefined) throw new Error(`the Lua wasm module does not import ${BORROWED_IMPORT}`);
  section(SECTION_FUNCTION);
  for (let i = 0, count = reader.unsigned(); i < count; i++) functionTypes.push(reader.unsigned());

  const data = section(SECTION_DATA);
  let formatAddress: number | undefined;
  const needle = Buffer.from('%.14g\0', 'latin1');
  for (let i = 0, count = reader.unsigned(); i < count && formatAddress === undefined; i++) {
    if (reader.unsigned() !== 0 || reader.byte() !== OP_I32_CONST)
      throw new Error('the Lua wasm module has a data segment of an unexpected form');
    const offset = reader.signed();
    if (reader.byte() !== OP_END) throw new Error('the Lua wasm module has a data segment of an unexpected form');
    const length = reader.unsigned();
    const at = Buffer.from(wasm.buffer, wasm.byteOffset + reader.at, length).indexOf(needle);
    if (at >= 0) formatAddress = offset + at;
    reader.at += length;
  }
  if (formatAddress === undefined || reader.at > data.end) throw new Error('the Lua wasm module has no "%.14g"');

  const code = section(SECTION_CODE);
  const bytes = Uint8Array.from(wasm);
  let rerouted = 0;
  for (let at = code.start; at < code.end; at++) {
    if (bytes[at] !== OP_I32_CONST) continue;
    // i32.const FORMAT; local.get ARGS; i32.const OFFSET; i32.add; call SNPRINTF
    const call = new WasmReader(bytes, at + 1);
    try {
      if (call.signed() !== formatAddress || call.byte() !== OP_LOCAL_GET) continue;
      call.unsigned();
      if (call.byte() !== OP_I32_CONST) continue;
      call.signed();
      if (call.byte() !== OP_I32_ADD || call.byte() !== OP_CALL) continue;
    } catch {
      continue;
    }
    const operand = call.at;
    const callee = call.unsigned();
    if (functionTypes[callee] !== functionTypes[borrowed]) continue;
    const width = call.at - operand;
    for (let i = 0; i < width; i++) bytes[operand + i] = ((borrowed >> (7 * i)) & 0x7f) | (i < width - 1 ? 0x80 : 0);
    rerouted++;
  }
  if (rerouted === 0) throw new Error('the Lua wasm module prints floats where it was not expected to');
  return { bytes, importName: BORROWED_IMPORT, formatAddress };
}
