import { LineCounter, parseAllDocuments, visit } from 'yaml';
import type { Problem } from '../errors/problem.ts';
import { GO_YAML_PARSE_OPTIONS, resolvePlainScalar } from '../yaml/goYamlSchema.ts';
import { jsonStreamParts } from '../yaml/jsonStream.ts';

/**
 * Plain (unquoted) scalars, values and keys, that YAML 1.1 — what kubectl reads — takes for something most
 * people do not mean, like yamllint's `truthy` rule: `yes`/`no`/`on`/`off`/`y`/`n` in any case are booleans,
 * `0644` is the octal number 420, `0b101` and `1_000` are numbers (in YAML 1.2 tools all of these are text, or
 * 644), and integers beyond 2^53 keep their digits for kubectl but not through Flotilla. Quoted scalars are what
 * the author chose and never reported. `1:20` is not reported: go-yaml v2 keeps it
 * as the text, as YAML 1.2 does, and Flotilla writes it quoted for other YAML 1.1 readers.
 *
 * For `flotilla validate` only: a render does not pay for it. Files without a candidate token are not parsed.
 */
export function findAmbiguousScalars(file: string, text: string): Problem[] {
  if (!CANDIDATE.test(text)) return [];
  // A stream of JSON objects is no YAML document, but each of its values is one, as parseDocuments reads them.
  const stream = jsonStreamParts(text);
  if (stream) return stream.flatMap((part) => findInDocuments(file, part.text).map((p) => part.place(p)));
  return findInDocuments(file, text);
}

function findInDocuments(file: string, text: string): Problem[] {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { ...GO_YAML_PARSE_OPTIONS, lineCounter });
  if (!Array.isArray(docs)) return [];
  const problems: Problem[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) continue; // validate reports the syntax error itself
    visit(doc, {
      Scalar(key, node) {
        if (node.type !== 'PLAIN' || node.tag || typeof node.source !== 'string' || !node.range) return;
        const surprise = surpriseOf(node.source);
        if (!surprise) return;
        const { line, col } = lineCounter.linePos(node.range[0]);
        problems.push({
          file,
          line,
          column: col,
          code: 'YAML_AMBIGUOUS',
          severity: 'warning',
          message: `${key === 'key' ? 'the key ' : ''}\`${node.source}\` ${surprise.reads}`,
          fix: surprise.fix,
        });
      },
    });
  }
  return problems;
}

/** A first filter on the whole text: a token that could be one of the surprising scalars, standing alone. */
const CANDIDATE =
  /(?:^|[\s,[{:])(?:[yYnN]|[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF|[-+]?0[0-7_]*[1-7][0-7_]*|[-+]?0b[-+]?[01_]+|[-+]?[0-9.]*_[0-9_.eE+-]*|[-+]?(?:0[xX][0-9a-fA-F]{14,}|[0-9]{16,}))[ \t]*(?:$|[,\]}#:])/m;

/** Integers as go-yaml reads them (decimal, or with a base prefix): what it keeps as int64/uint64, exactly. */
const INTEGER_SHAPED = /^[-+]?(?:[0-9_]+|0[xXoObB][0-9a-fA-F_]+)$/;

const BOOLEAN_WORDS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
]);

function surpriseOf(text: string): { reads: string; fix: string } | undefined {
  const c = text.charCodeAt(0);
  if (BOOLEAN_WORDS.has(text)) {
    const value = resolvePlainScalar(text) as boolean;
    return {
      reads: `reads as the boolean ${value} in YAML 1.1, which kubectl uses (YAML 1.2 tools read the text "${text}")`,
      fix: `quote it ("${text}") if you mean the text, or write ${value} if you mean the boolean`,
    };
  }
  if (!(c >= 48 && c <= 57) && c !== 43 && c !== 45) return undefined;
  const value = resolvePlainScalar(text);
  if (typeof value !== 'number') return undefined;
  const digits = text.replace(/^[-+]/, '');
  if (/^0[0-7_]+$/.test(digits) && value !== Number(text.replaceAll('_', ''))) {
    const octal = `${text.startsWith('-') ? '-' : ''}0o${digits.slice(1).replaceAll('_', '')}`;
    return {
      reads: `reads as the octal number ${value} in YAML 1.1, which kubectl uses (YAML 1.2 tools read ${Number(text.replaceAll('_', ''))})`,
      fix: `write ${octal} or ${value} if you mean the number (both read the same everywhere), or quote it ("${text}") if you mean the text`,
    };
  }
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER && INTEGER_SHAPED.test(text) && !writtenAsIs(text, value)) {
    return {
      reads: `is an integer beyond 2^53: kubectl sends it exactly, but Flotilla, like every JSON tool that reads numbers as doubles, keeps ${value}`,
      fix: `quote it ("${text}") if it is an identifier; a number (a CRD schema's maximum) reaches the members exactly when it is one Flotilla can keep, such as ${value}`,
    };
  }
  if (text.includes('_') || /^[-+]?0b/.test(text)) {
    return {
      reads: `reads as the number ${value} in YAML 1.1, which kubectl uses (YAML 1.2 tools read the text "${text}")`,
      fix: `write ${value} if you mean the number, or quote it ("${text}") if you mean the text`,
    };
  }
  return undefined;
}

/**
 * A decimal integer whose double Flotilla writes back with the same digits (`9223372036854775000`: the double nearest
 * to it prints so): the member gets the number the file holds, however it was carried.
 */
function writtenAsIs(text: string, value: number): boolean {
  if (!/^[-+]?[1-9][0-9_]*$/.test(text)) return false;
  const written = String(value);
  return /^-?[0-9]+$/.test(written) && BigInt(written) === BigInt(text.replaceAll('_', '').replace(/^\+/, ''));
}
