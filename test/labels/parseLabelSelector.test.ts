// apimachinery's labels.Parse and Requirement.Matches, the grammar of `kubectl get -l` and of the labelSelector query
// parameter the member emulator serves: each case's result is what k8s.io/apimachinery v0.32 gives for it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  LabelSelectorSyntaxError,
  matchesLabelRequirements,
  parseLabelSelector,
} from '../../src/labels/parseLabelSelector.ts';

type Case = [selector: string, labels: Record<string, string>, expected: boolean | string];

const CASES: Case[] = [
  ['size>1', { size: '2' }, true],
  ['size>1', { size: '1' }, false],
  ['size<10', { size: '9' }, true],
  ['size<10', { size: 'nine' }, false],
  ['size>1', {}, false],
  ['app in ()', { app: '' }, true],
  ['app in (,x)', { app: '' }, true],
  ['app notin (in, notin)', { app: 'in' }, false],
  ['!app=x', {}, "found '=', expected: ',' or 'end of string'"],
  ['!app,b', { b: '1' }, true],
  ['app = shop , tier', { app: 'shop', tier: '' }, true],
  ['app==', { app: '' }, true],
  ['a b', {}, "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
  ['app=a b', {}, "found 'b', expected: ',' or 'end of string'"],
  [
    '-bad=x',
    {},
    "unable to parse requirement: <nil>: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ],
  [
    'app=-x',
    {},
    "unable to parse requirement: values[0][app]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ],
  [
    'app>x',
    {},
    "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
  ],
  [
    'app>99999999999999999999',
    {},
    "unable to parse requirement: values[0]: Invalid value: \"99999999999999999999\": for 'Gt', 'Lt' operators, the value must be an integer",
  ],
  [
    'a>-x',
    {},
    "unable to parse requirement: [values[0]: Invalid value: \"-x\": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
  ],
  ['a,', {}, "found '', expected: identifier after ','"],
  ['a in (x', {}, "unable to parse requirement: found '', expected: ',' or ')'"],
  ['a=(', {}, "unable to parse requirement: found '(', expected: identifier"],
  ['a<=1', {}, "unable to parse requirement: found '=', expected: identifier"],
  ['a=b=c', {}, "found '=', expected: ',' or 'end of string'"],
  ['(a)', {}, "found '(', expected: !, identifier, or 'end of string'"],
];

function outcome(selector: string, labels: Record<string, string>): boolean | string {
  try {
    return matchesLabelRequirements(parseLabelSelector(selector), labels);
  } catch (err) {
    if (err instanceof LabelSelectorSyntaxError) return err.message;
    throw err;
  }
}

test('label selectors parse, validate and match as apimachinery labels.Parse does: gt and lt, empty sets, keys and values checked', () => {
  for (const [selector, labels, expected] of CASES)
    assert.is(outcome(selector, labels), expected, `${selector} on ${JSON.stringify(labels)}`);
});

test.run();
