import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseBlockYaml } from '../../src/yaml/blockYaml.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { KUBECTL } from '../deliveries/helpers/e2e.ts';
import { prng, randomText, SCALARS as GENERATED_SCALARS } from './helpers/randomYaml.ts';
import { runProgram, type ProgramResult } from '../helpers/runProgram.ts';

/**
 * Flotilla reads user YAML exactly as kubectl 1.32 does, compared against the real binary. `kubectl annotate
 * --local -f FILE -o json` reads files through the same decoder as `apply -f` (YAMLOrJSONDecoder, sigs.k8s.io/yaml
 * over go-yaml v2) and needs no server; an object whose kind it does not validate keeps every field as decoded.
 */

const cased = (w: string) => [
  ...new Set([
    w,
    w[0]!.toUpperCase() + w.slice(1),
    w.toUpperCase(),
    w.length > 1 ? w[0] + w.slice(1).toUpperCase() : w,
  ]),
];

/** Plain scalars, each used as a value (block and flow) and as a key. */
const SCALARS = [
  // Octal, hex, binary, underscores: go-yaml v2 reads base prefixes as Go's ParseInt does.
  '0400',
  '0644',
  '0755',
  '0o644',
  '0O17',
  '08',
  '09.5',
  '0x1F',
  '0X1f',
  '-0x10',
  '+0x10',
  '0b101',
  '0B11',
  '-0b11',
  '0b-101',
  '1_000',
  '0_644',
  '1__0',
  '0x',
  '0b',
  '0o',
  '00',
  '-0',
  '+0',
  '0',
  '007',
  // Booleans and nulls, in every case.
  ...['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null'].flatMap(cased),
  '~',
  // Floats.
  '1e3',
  '1E3',
  '1.0',
  '1.',
  '.5',
  '-.5',
  '+.5',
  '.5_5',
  '6.8523015e+5',
  '685.230_15e+03',
  '1e400',
  '-1e400',
  '1e-400',
  '.e3',
  '.',
  '1.5e',
  '0.1',
  '3.14159265358979',
  '123456.7',
  '1234567.0',
  '0.0001',
  '0.00001',
  '-0.0',
  '.Inf',
  '-.inf',
  '.NaN',
  '-.nan',
  '.iNf',
  // Timestamps and sexagesimal: strings for go-yaml v2.
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10',
  '2002-12-14T21:59:43Z',
  '1:20',
  '190:20:30',
  '-1:20',
  '1:20.5',
  // Integers at and beyond 64 bits.
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551615',
  '18446744073709551616',
  '0x7FFFFFFFFFFFFFFF',
  '0x8000000000000000',
  '0x10000000000000000',
  '12345678901234567',
  '99999999999999999999',
  // Look-alikes that stay strings.
  'yEs',
  'oN',
  'Nope',
  'tru',
  '1:2:3:4',
  '+',
  '-x',
  '1,000',
  '1 000',
  '=',
  '<<x',
  'e1',
  'Infinity',
  'NaN',
  'inf',
];

/** Values kubectl cannot carry as JSON; each must refuse its whole file. */
const REFUSED_VALUES = ['.inf', '.Inf', '+.INF', '-.Inf', '.nan', '.NaN', '.NAN'];
/** Keys kubectl cannot make a JSON key of. */
const REFUSED_KEYS = [
  '~',
  'null',
  'NULL',
  '18446744073709551615',
  '9223372036854775808',
  '0x8000000000000000',
  '[1]',
  '{a: 1}',
];

/** What the test sends: ConfigMap-shaped objects with a free-form `extra` field kubectl keeps as decoded. */
function object(name: string, extra: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nextra:\n${extra}`;
}

function corpus(): { files: Record<string, string>; names: string[]; documents: Map<string, string> } {
  const finite = SCALARS.filter(
    (s) => !REFUSED_VALUES.includes(s) && !['.inf', '-.inf', '.nan', '-.nan', '.Inf', '.NaN', '+.INF'].includes(s),
  );
  const docs: string[] = [];
  const names: string[] = [];
  const documents = new Map<string, string>();
  const add = (name: string, extra: string) => {
    docs.push(object(name, extra));
    names.push(name);
    documents.set(name, object(name, extra));
  };
  add('block-values', finite.map((s, i) => `  v${i}: ${s}\n`).join(''));
  add('sequence-values', `  list:\n${finite.map((s) => `  - ${s}\n`).join('')}`);
  add('flow-values', `  flow: [${finite.filter((s) => !/[,[\]{}]/.test(s)).join(', ')}]\n`);
  // One mapping per key: `yes` and `on` are both the key "true", which would be a duplicate in one mapping.
  const keys = SCALARS.filter(
    (s) => !REFUSED_KEYS.includes(s) && s !== '' && !['null', 'Null', 'NULL', '~'].includes(s),
  );
  add('keys', `  keys:\n${keys.map((s, i) => `  - ${s}: ${i}\n`).join('')}`);
  add(
    'merge-keys',
    '  base: &base {a: 1, b: 2}\n  over:\n    b: before\n    <<: [*base, {a: 3, c: 4}]\n    a: after\n  quoted:\n    "<<": not a merge\n',
  );
  add(
    'tagged',
    '  b: !!binary aGVsbG8=\n  t: !!timestamp 2001-12-14\n  s: !!str 0644\n  i: !!int "0644"\n  f: !!float 1\n  c: !custom 12\n  k:\n    !!str 1: a\n    !!int "2": b\n',
  );
  add('quoted', `  q: ["0644", 'yes', "1e3", '~', "on"]\n  d: "\\x41\\u00e9"\n`);
  const files: Record<string, string> = { 'corpus.yaml': `${docs.join('---\n')}` };
  // A literal block ending the file without a final newline: kubectl's line reader ends the last line too.
  files['no-final-newline.yaml'] = object('no-final-newline', '  text: |\n    last line');
  names.push('no-final-newline');
  files['crlf.yaml'] = object('crlf', '  text: |\n    a\n    b\n  n: 0644\n').replaceAll('\n', '\r\n');
  names.push('crlf');
  // Flow collections continued on lines no deeper than their key, as stable/minio's chart renders its command: libyaml
  // checks no indentation inside a flow collection.
  files['flow-continuations.yaml'] = object(
    'flow-continuations',
    '  command: [ "/bin/sh",\n  "-ce",\n  "cp a b &&\n  run it", plain\n  words, [nested,\n  it\'s] ]\n  labels: {a: "1",\n  b: \'2\'} # done\n  list:\n  - {k: [x,\n    y], z: 1}\n  tail: x\n',
  );
  names.push('flow-continuations');
  REFUSED_VALUES.forEach((s, i) => {
    files[`refused-value-${i}.yaml`] = object(`refused-value-${i}`, `  v: ${s}\n`);
  });
  REFUSED_KEYS.forEach((s, i) => {
    files[`refused-key-${i}.yaml`] = object(`refused-key-${i}`, `  ? ${s}\n  : 1\n`);
  });
  // kubectl splits documents itself, at every line starting with ---, and refuses content after the marker.
  files['refused-separator.yaml'] = `${object('refused-separator', '  a: 1\n')}--- b: 2\n`;
  return { files, names, documents };
}

function run(file: string, args: string[], cwd: string): Promise<ProgramResult> {
  return runProgram(file, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd },
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** kubectl -o json prints one pretty-printed object after another; each ends with a `}` alone on its line. */
function splitObjects(stdout: string): Record<string, unknown>[] {
  return stdout
    .split(/^}$/m)
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => JSON.parse(`${chunk}}`) as Record<string, unknown>);
}

test('every plain scalar, as a value and as a key, and every file kubectl refuses, read exactly as kubectl 1.32 reads them', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-kubectl-yaml-'));
  try {
    const { files, names, documents: corpusDocuments } = corpus();
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, 'kubeconfig'), '');
    const fileArgs = Object.keys(files).flatMap((f) => ['-f', f]);
    // One run over the whole corpus.
    const result = await run(
      KUBECTL,
      [
        '--kubeconfig',
        'kubeconfig',
        '--cache-dir',
        path.join(dir, 'cache'),
        'annotate',
        '--local',
        ...fileArgs,
        'flotilla.io/t=1',
        '-o',
        'json',
      ],
      dir,
    );
    const fromKubectl = new Map(
      splitObjects(result.stdout).map((o) => [(o.metadata as { name: string }).name, o.extra]),
    );
    assert.equal(
      [...fromKubectl.keys()].sort(),
      [...names].sort(),
      `kubectl read these objects; stderr:\n${result.stderr}`,
    );

    for (const [file, text] of Object.entries(files)) {
      const { documents, problems } = parseDocuments(file, new TextEncoder().encode(text));
      if (file.startsWith('refused-')) {
        assert.match(result.stderr, `error parsing ${file}:`, `kubectl refuses ${file}`);
        assert.equal(documents, [], `${file}: no documents`);
        const expected = file === 'refused-separator.yaml' ? ['YAML_SYNTAX', 7] : ['YAML_NOT_JSON', 6];
        assert.equal(
          problems.map((p) => [p.code, p.line]),
          [expected],
          `${file}: ${JSON.stringify(problems)}`,
        );
        continue;
      }
      assert.equal(problems, [], file);
      for (const doc of documents) {
        const { metadata, extra } = doc.value as { metadata: { name: string }; extra: unknown };
        assert.equal(extra, fromKubectl.get(metadata.name), `${file}: ${metadata.name}`);
      }
    }
    // Each corpus document alone: the block reader takes the plain ones (the whole file is the library's, for its anchors).
    const taken: string[] = [];
    for (const [name, text] of corpusDocuments) {
      if (parseBlockYaml(text)) taken.push(name);
      const { documents, problems } = parseDocuments(`${name}.yaml`, new TextEncoder().encode(text));
      assert.equal(problems, [], name);
      assert.equal((documents[0]!.value as { extra: unknown }).extra, fromKubectl.get(name), `${name} alone`);
    }
    assert.equal(taken, ['block-values', 'sequence-values', 'quoted'], 'the documents the block reader takes');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Syntax libyaml reads and the yaml library refuses or reads otherwise, left out of the generated texts: `?x` in a
 * flow sequence (libyaml: an explicit key), `-` right before a flow indicator (libyaml: the text "-").
 */
const KNOWN_SYNTAX_DIFFERENCES = new Set(['[?x]', "{'k': 'v' , x: -}", '[- a]']);

test('hundreds of generated texts: kubectl and Flotilla accept the same ones and read the same values', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-kubectl-yaml-'));
  try {
    const r = prng(20261201);
    // .inf and .nan values are refused by both (the corpus test holds that); leaving them out leaves more to compare.
    const scalars = GENERATED_SCALARS.filter(
      (s) => !KNOWN_SYNTAX_DIFFERENCES.has(s) && !/^[-+]?\.(?:inf|nan)$/i.test(s),
    );
    const texts = new Map<string, string>();
    for (let i = 0; i < 500; i++) {
      // Under `extra:`, two spaces in; document markers would split the object.
      const body = randomText(r, scalars)
        .split('\n')
        .filter((l) => !l.startsWith('---'))
        .map((l) => (l === '' ? l : `  ${l}`))
        .join('\n');
      texts.set(`g${i}.yaml`, object(`g${i}`, body));
    }
    for (const [name, text] of texts) writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, 'kubeconfig'), '');
    const result = await run(
      KUBECTL,
      [
        '--kubeconfig',
        'kubeconfig',
        '--cache-dir',
        path.join(dir, 'cache'),
        'annotate',
        '--local',
        ...[...texts.keys()].flatMap((f) => ['-f', f]),
        'flotilla.io/t=1',
        '-o',
        'json',
      ],
      dir,
    );
    const fromKubectl = new Map(
      splitObjects(result.stdout).map((o) => [(o.metadata as { name: string }).name, o.extra]),
    );
    let compared = 0;
    let refusedByBoth = 0;
    for (const [file, text] of texts) {
      const name = file.slice(0, -'.yaml'.length);
      const parsed = parseDocuments(file, new TextEncoder().encode(text));
      const { documents } = parsed;
      // A key set twice: kubectl keeps the last value, and so does Flotilla, with a warning.
      const problems = parsed.problems.filter((p) => p.severity === 'error');
      assert.is(
        problems.length === 0,
        fromKubectl.has(name),
        `${file}: kubectl ${fromKubectl.has(name) ? 'accepts' : 'refuses'} it, Flotilla says ${JSON.stringify(problems)}\n${text}`,
      );
      if (problems.length > 0) {
        refusedByBoth++;
        continue;
      }
      assert.equal((documents[0]!.value as { extra: unknown }).extra, fromKubectl.get(name), `${file}\n${text}`);
      compared++;
    }
    assert.ok(compared > 150 && refusedByBoth > 100, `compared ${compared}, refused by both ${refusedByBoth}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
