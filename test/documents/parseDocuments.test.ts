import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { indentQuotedContinuations } from '../../src/yaml/quotedContinuations.ts';
import { splitJsonStream } from '../../src/yaml/jsonStream.ts';

const parse = (file: string, text: string) => parseDocuments(file, new TextEncoder().encode(text));

const HELM_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  # {{ not this one: a comment }}
  name: {{ include "chart.fullname" . }}
  labels:
    {{- include "chart.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  template:
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          ports:
            {{- range .Values.ports }}
            - containerPort: {{ . }}
            {{- end }}
`;

/** Runs `fn` and returns what reached stderr meanwhile: process warnings and direct writes. */
function stderrDuring(fn: () => void): string[] {
  const seen: string[] = [];
  const emitWarning = process.emitWarning;
  const write = process.stderr.write;
  process.emitWarning = ((w: string | Error) => {
    seen.push(String(w));
  }) as typeof process.emitWarning;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    seen.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.emitWarning = emitWarning;
    process.stderr.write = write;
  }
  return seen;
}

test('a Helm template is one YAML_TEMPLATE error at its first {{ }} line with the fix, and nothing reaches stderr', () => {
  let result: ReturnType<typeof parse> | undefined;
  const stderr = stderrDuring(() => {
    result = parse('charts/web/templates/deployment.yaml', HELM_DEPLOYMENT);
  });
  assert.equal(stderr, []);
  assert.equal(result!.documents, []);
  assert.equal(
    result!.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['charts/web/templates/deployment.yaml', 5, 'YAML_TEMPLATE', 'error']],
  );
  assert.match(result!.problems[0]!.message, /Helm template/);
  assert.match(result!.problems[0]!.fix, /\.flotillaignore/);
});

test('a template expression that is YAML (a key holding a mapping) is refused like kubectl does, and warns nothing', () => {
  let result: ReturnType<typeof parse> | undefined;
  const stderr = stderrDuring(() => {
    result = parse('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n');
  });
  assert.equal(stderr, []);
  assert.equal(
    result!.problems.map((p) => [p.line, p.code]),
    [[4, 'YAML_TEMPLATE']],
  );
});

test('a kustomization, by its file name or by its apiVersion, is one YAML_TEMPLATE error naming Kustomize', () => {
  const kustomization =
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n';
  for (const [file, text, line] of [
    ['overlays/prod/kustomization.yaml', kustomization, 1],
    ['overlays/prod/Kustomization.yml', 'resources:\n  - ../base\n', 1],
    ['base/component.yaml', `# a component\n${kustomization.replace('Kustomization', 'Component')}`, 2],
  ] as const) {
    const { documents, problems } = parse(file, text);
    assert.equal(documents, [], file);
    assert.equal(
      problems.map((p) => [p.file, p.line, p.code]),
      [[file, line, 'YAML_TEMPLATE']],
      file,
    );
    assert.match(problems[0]!.message, /Kustomize/);
    assert.match(problems[0]!.fix, /\.flotillaignore/);
  }
  const chart = parse('charts/web/Chart.yaml', 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  assert.equal(
    chart.problems.map((p) => [p.code, p.message]),
    [['YAML_TEMPLATE', "this is a Helm chart's Chart.yaml, not a manifest"]],
  );
});

test('broken YAML without templates: the first error of each document, with a count of the rest', () => {
  const { problems } = parse('bad.yaml', 'a: 1\n b: 2\n  c: [3\nd: x: y\n---\nok: 1\n---\ne: 1\n f: 2\n');
  assert.equal(
    problems.map((p) => [p.code, p.line]),
    [
      ['YAML_SYNTAX', 1],
      ['YAML_SYNTAX', 8],
    ],
  );
  assert.match(problems[0]!.message, /\(and 5 more errors after it in this document/);
});

test('a manifest reads as kubectl reads it, on the fast path and off it', () => {
  const manifest =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    stdin: yes\n    tty: on\n  volumes:\n  - name: key\n    secret:\n      defaultMode: 0400\n';
  const expected = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      containers: [{ name: 'c', stdin: true, tty: true }],
      volumes: [{ name: 'key', secret: { defaultMode: 256 } }],
    },
  };
  assert.equal(parse('pod.yaml', manifest).documents[0]!.value, expected);
  // An anchor sends the file to the library.
  assert.equal(parse('pod.yaml', manifest.replace('name: p', 'name: &n p')).documents[0]!.value, expected);
});

test('.inf, .nan and null keys: YAML_NOT_JSON at the scalar, as kubectl refuses them', () => {
  const { problems } = parse('x.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  ratio: .inf\n');
  assert.equal(
    problems.map((p) => [p.code, p.line, p.column]),
    [['YAML_NOT_JSON', 6, 10]],
  );
  const keys = parse('y.yaml', 'a:\n  ~: 1\n');
  assert.equal(
    keys.problems.map((p) => [p.code, p.line, p.column]),
    [['YAML_NOT_JSON', 2, 3]],
  );
});

test('document separators as kubectl splits them: content after ---, documents hidden after ..., a ... or a directive without its document are refused at their line', () => {
  const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
  for (const [text, line] of [
    [`${cm('a')}--- a: 1\n`, 5],
    [`${cm('a')}---foo\n${cm('b')}`, 5],
    [`${cm('a')}...\n# c\n${cm('b')}`, 5],
    // A part whose first line that is not blank or a comment is `...` ends a document it does not hold.
    [`${cm('a')}---\n\n# c\n...\n---\n${cm('b')}`, 8],
    [`...\n${cm('a')}`, 1],
    // A directive is split from the document it introduces.
    [`%YAML 1.1\n---\n${cm('a')}`, 1],
    [`${cm('a')}---\n# c\n%TAG !e! tag:example.com,2000:\n---\n${cm('b')}`, 7],
  ] as const) {
    const { documents, problems } = parse('f.yaml', text);
    assert.equal(documents, [], text);
    assert.equal(
      problems.map((p) => [p.code, p.line]),
      [['YAML_SYNTAX', line]],
      text,
    );
  }
  // A comment after the marker, `...` right before `---`, and `---` inside an indented block are all fine.
  const fine = parse('f.yaml', `${cm('a')}... # end\n--- # next\n${cm('b')}data:\n  x: |\n    ---\n    y\n`);
  assert.equal(fine.problems, []);
  assert.equal(fine.documents.length, 2);
  // A second `...` after a document's own is passed over, as go-yaml skips extra document ends.
  assert.equal(parse('f.yaml', `${cm('a')}...\n...\n`).problems, []);
});

test('a key set twice keeps its last value, as kubectl does, with a warning at the second naming the first', () => {
  const text =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\ndata:\n  a: "1"\n  a: "2"\n  yes: x\n  ON: z\n';
  const { documents, problems } = parseDocuments('templates/dup.yaml', new TextEncoder().encode(text));
  assert.equal((documents[0]!.value as { data: unknown }).data, { a: '2', true: 'z' });
  assert.equal(
    problems.map((p) => [p.line, p.column, p.code, p.severity]),
    [
      [7, 3, 'YAML_DUPLICATE_KEY', 'warning'],
      [9, 3, 'YAML_DUPLICATE_KEY', 'warning'],
    ],
  );
  assert.match(problems[1]!.message, 'the key `true` is set twice in this mapping (first at line 8)');
  // Thousands of repeats (a hostile pull request) are said in eleven lines.
  const many = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many}\ndata:\n${'  k: "v"\n'.repeat(5000)}`;
  const flood = parseDocuments('templates/many.yaml', new TextEncoder().encode(many)).problems;
  assert.is(flood.length, 11);
  assert.match(flood[10]!.message, 'and 4989 more keys set twice in this document');
  // A key set twice in a file whose strings hold `{{ }}` (a Grafana dashboard in a ConfigMap) is still that manifest.
  const dashboard = `${text}  dashboard.json: '{"legendFormat": "{{pod}}"}'\n`;
  const kept = parseDocuments('templates/dash.yaml', new TextEncoder().encode(dashboard));
  assert.equal(
    kept.problems.map((p) => p.code),
    ['YAML_DUPLICATE_KEY', 'YAML_DUPLICATE_KEY'],
  );
  assert.is(kept.documents.length, 1);
});

test('a few aliases of a large anchor are refused like many aliases: what they copy counts against the file limit', () => {
  const big = 'x'.repeat(200_000);
  const doc = (aliases: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: amp}\ndata:\n  a: &x "${big}"\n${Array.from({ length: aliases }, (_, i) => `  b${i}: *x\n`).join('')}`;
  const refused = parseDocuments('templates/amp.yaml', new TextEncoder().encode(doc(100)));
  assert.equal(
    refused.problems.map((p) => [p.code, p.line]),
    [['YAML_TOO_COMPLEX', 1]],
  );
  assert.match(refused.problems[0]!.message, 'aliases that copy more than 16777216 bytes');
  assert.equal(refused.documents, []);
  const kept = parseDocuments('templates/amp.yaml', new TextEncoder().encode(doc(10)));
  assert.equal(kept.problems, []);
  assert.is(Object.keys((kept.documents[0]!.value as { data: object }).data).length, 11);
});

test('!!omap and !!pairs read as kubectl reads them: a list of one-key mappings', () => {
  const text =
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nextra:\n  omap: !!omap [{a: 1}, {b: 2}]\n  pairs: !!pairs [{a: 1}, {a: 2}]\n';
  const { documents, problems } = parseDocuments('templates/x.yaml', new TextEncoder().encode(text));
  assert.equal(problems, []);
  assert.equal((documents[0]!.value as { extra: unknown }).extra, {
    omap: [{ a: 1 }, { b: 2 }],
    pairs: [{ a: 1 }, { a: 2 }],
  });
});

test('a quoted value wrapped onto lines no deeper than its key reads as kubectl reads it, line numbers kept', () => {
  // go-yaml (kubectl) and PyYAML take such lines; the YAML spec wants them indented past the key.
  const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: wrapped
  annotations:
    note: 'a long
    sentence, it''s wrapped'
data:
  script: |
    echo 'not a quote to lift
  json: "{\\"a\\":
  1}"
  tail: x
`;
  const { documents, problems } = parse('templates/wrapped.yaml', text);
  assert.equal(problems, []);
  const cm = documents[0]!.value as { metadata: { annotations: Record<string, string> }; data: Record<string, string> };
  assert.is(cm.metadata.annotations.note, "a long sentence, it's wrapped");
  assert.equal(cm.data, { script: "echo 'not a quote to lift\n", json: '{"a": 1}', tail: 'x' });
  assert.is(documents[0]!.locate(['data', 'tail']).line, 13);
  // Still refused where kubectl refuses it too: a document marker inside the quotes.
  const broken = parse('templates/broken.yaml', "a: 'x\n---\ny'\n");
  assert.is(broken.problems[0]?.code, 'YAML_SYNTAX');
});

test('lifting wrapped quoted lines stays bounded by the file a pull request commits', () => {
  // Lines are lifted past the entry's start, not the quote's: a 200,000-character key before the quote lifts nothing far.
  const longKey = parse('templates/long.yaml', `${'a'.repeat(200_000)}: 'x\n${'y\n'.repeat(20_000)}'\n`);
  assert.is(longKey.problems[0]?.code, 'YAML_SYNTAX');
  // And never more than the text's own length in all: past that the file is refused as the library reads it.
  const deep = `${'  '.repeat(30)}a: 'x\n${'y\n'.repeat(1_000)}'\n`;
  assert.is(indentQuotedContinuations(deep), undefined);
  assert.is(indentQuotedContinuations("a:\n  b: 'x\n  y'\n"), "a:\n  b: 'x\n   y'\n");
});

test('a text is a JSON stream as kubectl sniffs one: a leading {, then JSON values with nothing or JSON space between', () => {
  const slices = (text: string) => splitJsonStream(text)?.map(({ start, end }) => text.slice(start, end));
  assert.equal(slices(' \n{"a": "}{"}{"b": [1, {"c": "\\""}]}\n\t{}'), [
    '{"a": "}{"}',
    '{"b": [1, {"c": "\\""}]}',
    '{}',
  ]);
  // A number longer than any fixed look-ahead stays one value.
  assert.equal(slices(`{}${' '}${'9'.repeat(80)}`), ['{}', '9'.repeat(80)]);
  // One value is the YAML document it also is; not JSON, or not starting with {, is YAML's to read.
  assert.is(splitJsonStream('{"a": 1}\n'), undefined);
  assert.is(splitJsonStream('{"a": 1}\n---\n{"b": 2}\n'), undefined);
  assert.is(splitJsonStream('{a: 1}\n{b: 2}\n'), undefined);
  assert.is(splitJsonStream('# c\n{"a": 1}{"b": 2}'), undefined);
  // Go's unicode.IsSpace before the brace: a no-break space is skipped, a byte order mark is not.
  assert.equal(slices('\u00a0{}{}'), ['{}', '{}']);
  assert.is(splitJsonStream('\ufeff{}{}'), undefined);
});

test('a JSON stream in a .yaml file is read as kubectl reads it, each object a document at its own line', () => {
  const { documents, problems } = parse('dump.yaml', '{"kind": "A"}\n  {"kind": "B",\n "x": 1}{"kind": "C"}\n');
  assert.equal(problems, []);
  assert.equal(
    documents.map((d) => [d.index, d.value, d.source.line, d.source.column]),
    [
      [0, { kind: 'A' }, 1, 1],
      [1, { kind: 'B', x: 1 }, 2, 3],
      [2, { kind: 'C' }, 3, 9],
    ],
  );
  assert.equal(documents[1]!.locate(['x']), { file: 'dump.yaml', line: 3, column: 7 });
});

test.run();
