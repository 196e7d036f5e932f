import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineCounter, parseAllDocuments } from 'yaml';
import { parseBlockYaml, parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { documentValue } from '../../src/yaml/documentValue.ts';
import { GO_YAML_PARSE_OPTIONS } from '../../src/yaml/goYamlSchema.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { prng, randomText } from './helpers/randomYaml.ts';
import { generateFleet } from '../../scripts/bench/generateFleet.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The library path's value of a document (kubectl's reading), or the message it refuses the document with. */
function libraryValue(doc: Parameters<typeof documentValue>[0]): unknown {
  try {
    return documentValue(doc, 1000);
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

/**
 * The contract: whatever the block reader accepts, it reads exactly as the library path does (the yaml library
 * with kubectl's schema, then documentValue: values and where each document starts), and the library finds no
 * error in it. Returns whether the reader took the text.
 */
function agreesWithLibrary(text: string, label: string): boolean {
  const block = parseBlockYaml(text);
  if (!block) return false;
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, {
    ...GO_YAML_PARSE_OPTIONS,
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  });
  const docs = Array.isArray(parsed) ? parsed : [];
  const errors = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.message));
  assert.equal(errors, [], `${label}: the block reader accepted a text the library reports:\n${text}`);
  assert.is(block.length, docs.length, `${label}: document count\n${text}`);
  docs.forEach((doc, i) => {
    const expected = libraryValue(doc);
    assert.equal(block[i]!.value, expected, `${label}: document ${i + 1}\n${text}`);
    assert.ok(
      Object.is(block[i]!.value, expected) || typeof expected === 'object',
      `${label}: document ${i + 1} (-0, NaN)\n${text}`,
    );
    if (expected !== null) {
      const pos = lineCounter.linePos(doc.contents!.range[0]);
      assert.equal(
        [block[i]!.line, block[i]!.column],
        [pos.line, pos.col],
        `${label}: position of document ${i + 1}\n${text}`,
      );
    }
  });
  return true;
}

function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...yamlFilesUnder(full));
    else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out;
}

test("every YAML file of the project and of Karmada's samples reads as the library reads it, most of them on the fast path", () => {
  // Beside the checkout in /work/main, two levels up from a worktree under /work/wt.
  const samples = [
    path.resolve(ROOT, '../shared/karmada-samples'),
    path.resolve(ROOT, '../../shared/karmada-samples'),
  ].find((d) => existsSync(d))!;
  // The project's files are those Git tracks: a scratch file in a working copy is no part of it.
  const tracked = execFileSync('git', ['ls-files', '-z', '--', '*.yaml', '*.yml'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '')
    .map((f) => path.join(ROOT, f));
  const files = [...tracked, ...yamlFilesUnder(samples)];
  assert.ok(files.length >= 20, `found ${files.length} files`);
  const taken = files.filter((f) => agreesWithLibrary(readFileSync(f, 'utf8'), path.relative(ROOT, f)));
  assert.ok(
    taken.length >= files.length * 0.8,
    `the block reader took ${taken.length} of ${files.length}: ${files.filter((f) => !taken.includes(f)).join(', ')}`,
  );
});

test('a generated fleet (Deployments, Services, ConfigMaps, policies, clusters) is read on the fast path, as the library reads it', () => {
  // Without its Helm and Kustomize units: their templates are Go templates, not YAML, and never read as manifests.
  const fleet = generateFleet('S', 'block-yaml', false);
  let taken = 0;
  for (const [file, content] of fleet.files) if (agreesWithLibrary(content, file)) taken++;
  assert.is(taken, fleet.files.size);
});

test("edge cases: taken with the library's values, or left to the library", () => {
  const taken = (text: string) => agreesWithLibrary(text, JSON.stringify(text));
  // Taken.
  for (const text of [
    'a: 1\n',
    'a: 1\n---\n',
    '---\na: 1\n',
    '---\n---\na: 1',
    '--- # c\na: 1\n',
    '# x\n---\n# y\n',
    '- a\n---\n- b\n#end\n',
    'a:\n  - b\n  -\n  - c: 1\n    d: 2\n  - - x\n',
    'a:\n- 1\n- 2\nb: 3\n',
    'a: 1\n  # c\nb: 2\n',
    '  a: 1\n  b: 2\n',
    'a: -1\nb: .5\nc: 1e3\nd: 0o17\ne: 0x1F\nf: +5\ng: 1.\ni: ~\nj: Null\nk: TRUE\nl: yes\nm: 1_000\np: 0.10\nq: 0644\nr: On\ns: 1:20\nt: 08\nu: 0b101\nv: -0\nw: 2001-12-14\nx: n\n',
    '"a b": 1\n\'c\': 2\n',
    'k: v # c\nq: "a\\u00e9\\t\\x41\\U0001F600\\\\\\"\\/"\n',
    "s: 'it''s'\n",
    'u: http://x:80/a#b\n',
    'a#b: c\nd: e#f\n',
    'a: |\n  x\n\n  y\n\nb: 1\n',
    'a: |-\n  x\n  y\nb: |\n    indented\n  \n',
    'a: |\nb: 1\n',
    'a: |\n  # not a comment\n  x\n# a comment\n',
    'a: []\nb: {}\nc: [] # empty\n',
    'zones: [zone-1, "zone 2", 3]\nvalue: {"OverridePolicy":"test", k: v}\n',
    'a:\nb:\n  c:\n',
    'x\n',
    '- -1\n- -x\n- :x\n- ?y\n',
    '-   a: 1\n    b: 2\n-   c\n',
    'key  : spaced\n',
    'a: "x" # c\n',
    'a: \'\'\nb: ""\n',
    'a: null\n',
    '-\n  a: 1\n-\n',
    'a:   # c\n  b: 1\n',
  ])
    assert.ok(taken(text), `should be taken: ${JSON.stringify(text)}`);
  // Left to the library.
  for (const text of [
    'a: &x 1\nb: *x\n',
    'a: !tag x\n',
    'a: [1, [2]]\n',
    'a: {b: {}}\n',
    'a: [1,\n  2]\n',
    'a: >\n  folded\n',
    'a: |+\n  keep\n',
    'a: |2\n   x\n',
    'a: b\n  c\n',
    'a: "multi\n  line"\n',
    'a: 1\na: 2\n',
    '1: a\n',
    'true: a\n',
    'null: a\n',
    '<<: {}\n',
    'a:\n\tb: 1\n',
    'a: 1\r\n',
    '? a\n: b\n',
    'a: b: c\n',
    'a: - b\n',
    '%YAML 1.2\n---\na: 1\n',
    'a: 1\n...\n',
    '--- a: 1\n',
    'a:\n  b: 1\n c: 2\n',
    'a:\n  - x\n   - y\n',
    'a: @x\n',
    'a: "\\q"\n',
    '__proto__: 1\n',
    '|\n  top\n',
    'a: |\n  x',
    'a: |\n  x\n    \n',
    '"a":1\n',
    'a: "x"y\n',
    'h: .inf\n',
    'n: -.INF\n',
    'o: .NaN\n',
    '[.inf]\n',
    'yes: a\n',
    'on: push\n',
    '0644: a\n',
    '~: a\n',
  ])
    assert.not.ok(taken(text), `should be left to the library: ${JSON.stringify(text)}`);
});

test('thousands of generated texts: never a value, position or acceptance that differs from the library', () => {
  const r = prng(20261129);
  let taken = 0;
  const runs = 6000;
  for (let i = 0; i < runs; i++) if (agreesWithLibrary(randomText(r), `generated #${i}`)) taken++;
  // Both sides of the contract get exercised: many texts taken, many left to the library.
  assert.ok(taken > runs * 0.1 && taken < runs * 0.9, `taken ${taken} of ${runs}`);
});

test('parseDocuments: empty documents (a trailing or doubled ---) are skipped, not reported, on both paths', () => {
  const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
  for (const text of [`${manifest}---\n`, `---\n---\n${manifest}`, `${manifest}---\n---\nb: &x 1\nc: *x\n`]) {
    const { documents, problems } = parseDocuments('f.yaml', new TextEncoder().encode(text));
    assert.equal(problems, []);
    assert.ok(documents.length >= 1);
    assert.equal(documents[0]!.value, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
  }
});

test('parseDocuments: a field position asked of a document read on the fast path comes from the library, on its line', () => {
  const text =
    '# leading comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  key: |\n    one\n    two\n  other: x\n';
  assert.ok(parseBlockYaml(text), 'the text is on the fast path');
  const { documents } = parseDocuments('cm.yaml', new TextEncoder().encode(text));
  const doc = documents[0]!;
  assert.equal(doc.source, { file: 'cm.yaml', line: 2, column: 1 });
  assert.equal(doc.locate(['data', 'other']), { file: 'cm.yaml', line: 10, column: 10 });
  assert.equal(doc.locate(['metadata', 'missing']), { file: 'cm.yaml', line: 5, column: 3 });
});

test("parseYamlValue: the library path's value on every text, taken or not (one document, none, several, bad YAML)", () => {
  const expected: Record<string, unknown> = {
    'a: 1\n': { a: 1 },
    '': null,
    '# only\n': null,
    '---\n': null,
    'a: &x 1\nb: *x\n': { a: 1, b: 1 },
    '- x\n- z\n- y\n': ['x', 'z', true],
    'x\n': 'x',
    'm: 0644\nb: [yes, off]\n': { m: 420, b: [true, false] },
    '<<: {k: 1}\nyes: 2\n': { k: 1, true: 2 },
    'a: |\n  x': { a: 'x\n' },
  };
  for (const [text, value] of Object.entries(expected)) assert.equal(parseYamlValue(text), value, JSON.stringify(text));
  assert.throws(() => parseYamlValue('a: 1\n---\nb: 2\n'), /multiple documents|Source contains/);
  assert.throws(() => parseYamlValue('a: 1\na: 2\n'));
  assert.throws(() => parseYamlValue('a: .inf\n'), /JSON cannot carry/);
});

test.run();
