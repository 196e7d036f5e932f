// cli-runtime's GoTemplatePrinter (pkg/printers/template.go): a Go template named "output" with kubectl's two extra
// functions, run on the object as encoding/json writes it and apimachinery's json.Unmarshal reads it back, and the
// debugging text kubectl writes beside an execution error.
import {
  executeGoTemplate,
  type GoFunction,
  indirect,
  indirectInterface,
  type Value,
} from '../goTemplates/executeGoTemplate.ts';
import { formatValue } from '../goTemplates/goFmt.ts';
import { fromJson, type GoData } from '../goTemplates/goValues.ts';
import { type GoTemplate, parseGoTemplate } from '../goTemplates/parseGoTemplate.ts';
import { storedJsonText } from '../patches/patchJsonText.ts';
import { goQuote } from '../text/goQuote.ts';

export { GoTemplateSyntaxError } from '../goTemplates/parseGoTemplate.ts';

/** kubectl's template, or text/template's parse error (`template: output:1: ...`) thrown as GoTemplateSyntaxError. */
export function parseKubectlGoTemplate(text: string): GoTemplate {
  return parseGoTemplate('output', text, Object.keys(KUBECTL_FUNCTIONS));
}

/**
 * The template applied to the object as kubectl's PrintObj applies it: what it printed, and on failure kubectl's
 * error (`error executing template "TEMPLATE": template: output:1:2: ...`) with the text printed before it followed
 * by kubectl's debugging block, which kubectl writes to standard output. Pure.
 */
export function printGoTemplate(
  template: GoTemplate,
  object: unknown,
  allowMissingKeys: boolean,
): { output: string; error?: string } {
  const data = fromJson(object);
  const result = executeGoTemplate(template, data, {
    missingKey: allowMissingKeys ? 'default' : 'error',
    functions: KUBECTL_FUNCTIONS,
  });
  if (!result.error) return { output: result.output };
  const message = result.error.message;
  return {
    output: `${result.output}Error executing template: ${message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template.text}\n\traw data was:\n\t\t${storedJsonText(object)}\n\tobject given to template engine was:\n\t\t${formatValue(data)}\n\n`,
    error: `error executing template ${goQuote(template.text)}: ${message}`,
  };
}

/** The functions kubectl adds to text/template's: exists and base64decode. */
const KUBECTL_FUNCTIONS: Record<string, GoFunction> = {
  exists: { params: ['any', 'any'], variadic: true, call: ([item, ...indices]) => exists(item, indices) },
  base64decode: {
    params: ['string'],
    variadic: false,
    call: ([text]) => ({ data: base64decode(text!.data as string), iface: false }),
  },
};

/**
 * cli-runtime's exists: whether each index in turn finds something that is not nil (an int into a slice or string,
 * a string key into a map). With no index it is true even of nothing, as kubectl's is.
 */
function exists(item: Value, indices: Value[]): Value {
  const found = (v: Value): boolean => {
    let current = indirectInterface(v);
    for (const index of indices) {
      const { value, isNil } = indirect(current);
      if (isNil) return false;
      const data: GoData | undefined = value?.data;
      const key = index?.data;
      if (typeof data === 'string' || (data !== null && typeof data === 'object' && data.kind === 'slice')) {
        if (key === null || key === undefined || typeof key !== 'object' || key.kind !== 'int') return false;
        const length = typeof data === 'string' ? Buffer.byteLength(data) : data.items.length;
        if (key.value < 0n || key.value >= BigInt(length)) return false;
        current =
          typeof data === 'string'
            ? {
                data: { kind: 'int', type: 'uint8', value: BigInt(Buffer.from(data)[Number(key.value)]!) },
                iface: false,
              }
            : { data: data.items[Number(key.value)]!, iface: true };
      } else if (data !== null && data !== undefined && typeof data === 'object' && data.kind === 'map') {
        const name = key === null || key === undefined ? '' : key;
        if (typeof name !== 'string') return false;
        current = { data: data.entries.get(name) ?? null, iface: true };
      } else return false;
    }
    return !indirect(current).isNil;
  };
  return { data: found(item), iface: false };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64.StdEncoding.DecodeString as kubectl's base64decode calls it, with Go's error for bad input. */
function base64decode(text: string): string {
  const src = Buffer.from(text, 'utf8');
  const fail = (at: number): never => {
    throw new Error(`base64 decode failed: illegal base64 data at input byte ${at}`);
  };
  const out: number[] = [];
  let si = 0;
  const isNewline = (b: number | undefined) => b === 0x0a || b === 0x0d;
  while (si < src.length) {
    const quantum: number[] = [];
    let length = 4;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out).toString('utf8');
        fail(si - j);
      }
      const c = src[si]!;
      si++;
      const at = BASE64.indexOf(String.fromCharCode(c));
      if (c < 0x80 && at >= 0) {
        quantum.push(at);
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d) fail(si - 1);
      if (j === 0 || j === 1) fail(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) fail(src.length);
        if (src[si] !== 0x3d) fail(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) fail(si);
      length = j;
      break;
    }
    const n = quantum.reduce((acc, d, i) => acc | (d << (18 - 6 * i)), 0);
    const bytes = [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff].slice(0, length - 1);
    out.push(...bytes);
    while (si < src.length && isNewline(src[si])) si++;
  }
  return Buffer.from(out).toString('utf8');
}
