import type { Problem } from '../errors/problem.ts';

/**
 * Template functions whose result a render cannot reproduce: each run gives another value (Sprig's random strings,
 * UUIDs, keys and certificates, salted hashes, the clock). A unit's output is cached by its inputs, so the value
 * holds while the cache does; a render without that cache (a fresh clone, `verify` elsewhere, a new tool version)
 * writes another one, and the cluster's object changes with no change in Git.
 */
const NOT_REPRODUCIBLE = new Set([
  'randAlphaNum',
  'randAlpha',
  'randAscii',
  'randNumeric',
  'randBytes',
  'randInt',
  'uuidv4',
  'shuffle',
  'now',
  'ago',
  'genPrivateKey',
  'genCA',
  'genCAWithKey',
  'genSelfSignedCert',
  'genSelfSignedCertWithKey',
  'genSignedCert',
  'genSignedCertWithKey',
  'encryptAES',
  'bcrypt',
  'htpasswd',
]);

/**
 * Functions that ask outside the chart: `helm template` (and Argo CD, which renders with it) answers them with nothing
 * (`lookup` an empty map, `getHostByName` an empty string), where `helm install` against a cluster would answer.
 */
const ANSWERED_EMPTY = new Set(['lookup', 'getHostByName']);

const CALL_NAMES = [...NOT_REPRODUCIBLE, ...ANSWERED_EMPTY].join('|');

/**
 * Warnings for a chart's templates that call those functions (pure), one per function and file, at its first call:
 * `files` are the chart's files by path in the chart (its subcharts' under `charts/<name>/`), and only templates
 * (`templates/` of the chart or of a vendored subchart) are read. Calls are looked for inside `{{ }}` actions, outside
 * comments and string literals, and not as a field or variable (`.Values.now`, `$lookup`). A call in a branch the
 * values never take still warns: whether it runs depends on values, and so can change with them.
 */
export function chartCallWarnings(chartDir: string, files: ReadonlyMap<string, string>): Problem[] {
  const out: Problem[] = [];
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // NOTES.txt is rendered for `helm install`'s message, never into the output.
    if (!/^(charts\/[^/]+\/)*templates\//.test(file) || /(^|\/)NOTES\.txt$/.test(file)) continue;
    const seen = new Set<string>();
    for (const call of templateCalls(text)) {
      if (seen.has(call.name)) continue;
      seen.add(call.name);
      out.push(callWarning(`${chartDir}/${file}`, call));
    }
  }
  return out;
}

interface Call {
  name: string;
  line: number;
  column: number;
}

/** The calls of those functions in one template's actions, in order. */
function templateCalls(text: string): Call[] {
  const calls: Call[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    if (open < 0) break;
    let i = open + 2;
    if (text.startsWith('/*', i) || /^- \/\*/.test(text.slice(i, i + 4))) {
      // A comment action ends at `*/}}` (or `*/ -}}`); it calls nothing.
      const end = text.indexOf('*/', i);
      at = end < 0 ? text.length : end + 2;
      continue;
    }
    // The action's code, with string and character literals blanked out so a word inside one is not a call.
    let code = '';
    while (i < text.length && !text.startsWith('}}', i)) {
      const c = text[i]!;
      if (c === '"' || c === "'" || c === '`') {
        code += ' ';
        i++;
        while (i < text.length && text[i] !== c) {
          if (c !== '`' && text[i] === '\\') i++;
          code += text[i] === '\n' ? '\n' : ' ';
          i++;
        }
        code += ' ';
        i++;
        continue;
      }
      code += c;
      i++;
    }
    for (const m of code.matchAll(new RegExp(`(?<![\\w.$])(${CALL_NAMES})(?![\\w.])`, 'g'))) {
      const offset = open + 2 + m.index!;
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      calls.push({ name: m[1]!, line, column: offset - before.lastIndexOf('\n') });
    }
    at = i + 2;
  }
  return calls;
}

function callWarning(file: string, call: Call): Problem {
  const at = { file, line: call.line, column: call.column };
  if (ANSWERED_EMPTY.has(call.name))
    return {
      ...at,
      code: 'LOOKUP_EMPTY',
      severity: 'warning',
      message: `${call.name} answers nothing in a render: Flotilla renders as \`helm template\` does (and Argo CD), with no cluster and no network, so ${call.name === 'lookup' ? 'lookup returns an empty map' : 'getHostByName returns an empty string'} where \`helm install\` would find an answer`,
      fix:
        call.name === 'lookup'
          ? 'give the chart the value it looks up in values (a value file or spec.values of flotilla-unit.yaml), or leave it to the branch the chart takes when nothing is found'
          : 'give the chart the address in values',
    };
  return {
    ...at,
    code: 'NOT_REPRODUCIBLE',
    severity: 'warning',
    data: { call: call.name },
    message: `${call.name} gives another value on each run: the output is cached by the chart's inputs, so the value holds while that cache does, but a render without it (a fresh clone, \`flotilla verify\` elsewhere, another tool version) writes a new one and the object changes on its clusters with no change in Git (verify reports it as differing)`,
    fix: `set the value in the chart's values (a value file or spec.values of flotilla-unit.yaml) instead of calling ${call.name}, or create the object outside the chart`,
  };
}

/**
 * The same warnings for a packed subchart (`charts/<name>-<version>.tgz`, its files by path inside the chart), placed
 * at the archive, the file of the repository, with the template and line inside it in the message (pure).
 */
export function archivedChartCallWarnings(archive: string, files: ReadonlyMap<string, string>): Problem[] {
  return chartCallWarnings(archive, files).map((p) => ({
    ...p,
    file: archive,
    line: 1,
    column: 1,
    message: `${p.file.slice(archive.length + 1)}:${p.line}:${p.column} in ${archive}: ${p.message}`,
  }));
}
