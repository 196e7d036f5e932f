// kubectl's -o go-template over one object: each case's output, error and exit code as kubectl v1.32.3 gave them
// (fixtures/goTemplateCases.json says how they were recorded).
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GoTemplateSyntaxError, parseKubectlGoTemplate, printGoTemplate } from '../../src/printers/goTemplate.ts';

interface Case {
  template: string;
  allowMissingKeys: boolean;
  stdout: string;
  stderr: string;
  code: number;
}
const recorded = JSON.parse(readFileSync(new URL('./fixtures/goTemplateCases.json', import.meta.url), 'utf8')) as {
  object: unknown;
  cases: Case[];
};

/** What kubectl writes for the template: standard output up to its debugging text, standard error, exit code. */
function run(template: string, allowMissingKeys: boolean): { stdout: string; stderr: string; code: number } {
  let parsed: ReturnType<typeof parseKubectlGoTemplate>;
  try {
    parsed = parseKubectlGoTemplate(template);
  } catch (err) {
    if (!(err instanceof GoTemplateSyntaxError)) throw err;
    return { stdout: '', stderr: `error: error parsing template ${template}, ${err.message}\n`, code: 1 };
  }
  const printed = printGoTemplate(parsed, recorded.object, allowMissingKeys);
  return {
    stdout: printed.output.split('Printing more information')[0]!,
    stderr: printed.error === undefined ? '' : `error: ${printed.error}\n`,
    code: printed.error === undefined ? 0 : 1,
  };
}

test('each recorded template prints, fails to parse or fails to run as kubectl did', () => {
  for (const c of recorded.cases) {
    const ours = run(c.template, c.allowMissingKeys);
    assert.is(ours.stdout, c.stdout, c.template);
    assert.is(ours.stderr, c.stderr, c.template);
    assert.is(ours.code, c.code, c.template);
  }
});

test('numbers are int64 when whole and float64 otherwise, as apimachinery decodes them', () => {
  assert.is(
    run('{{.spec.n}} {{.spec.big}} {{.spec.half}} {{printf "%T %T" .spec.n .spec.half}}', true).stdout,
    '3 1000000 0.5 int64 float64',
  );
  const big = printGoTemplate(
    parseKubectlGoTemplate('{{.a}} {{.b}} {{.c}}'),
    { a: 1e21, b: 1234567.5, c: 0.00001 },
    true,
  );
  assert.is(big.output, '1e+21 1.2345675e+06 1e-05');
});

test('a missing key prints <no value>, a null one <no value> in an action and <nil> inside a map', () => {
  assert.is(run('{{.spec.nope}} {{.spec.nul}}', true).stdout, '<no value> <no value>');
  assert.match(run('{{.spec}}', true).stdout, 'nul:<nil>');
});

test('the debugging text after an execution error shows the template, the JSON and the map kubectl ran it on', () => {
  const printed = printGoTemplate(parseKubectlGoTemplate('a{{.x.y}}'), { x: 1, s: '<&>' }, true);
  assert.is(
    printed.output,
    'aError executing template: template: output:1:5: executing "output" at <.x.y>: can\'t evaluate field y in type interface {}. Printing more information for debugging the template:\n\ttemplate was:\n\t\ta{{.x.y}}\n\traw data was:\n\t\t{"s":"\\u003c\\u0026\\u003e","x":1}\n\tobject given to template engine was:\n\t\tmap[s:<&> x:1]\n\n',
  );
  assert.is(
    printed.error,
    'error executing template "a{{.x.y}}": template: output:1:5: executing "output" at <.x.y>: can\'t evaluate field y in type interface {}',
  );
});

test.run();
