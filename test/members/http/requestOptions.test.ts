import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../src/members/ApiError.ts';
import {
  checkPodLogOptions,
  checkRequestTimeout,
  goDurationError,
  parseDeleteOptions,
  parseIncludeObject,
  parseInt64,
  parseListOptions,
  parseWriteOptions,
  propagationOf,
  queryBool,
} from '../../../src/members/http/requestOptions.ts';

const q = (query: string) => new URLSearchParams(query);

function rejection(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

test('a query bool is false only for 0 and any case of false; every other value, even empty, is true', () => {
  for (const value of ['true', 'True', 'TRUE', '1', 't', 'yes', ''])
    assert.is(queryBool(q(`watch=${value}`), 'watch'), true, value);
  for (const value of ['false', 'False', 'FALSE', 'fAlSe', '0'])
    assert.is(queryBool(q(`watch=${value}`), 'watch'), false, value);
  assert.is(queryBool(q('watch'), 'watch'), true);
  assert.is(queryBool(q(''), 'watch'), undefined);
  // Only the first of repeated values counts.
  assert.is(queryBool(q('watch=false&watch=true'), 'watch'), false);
});

test('int64 parameters parse like strconv.ParseInt and fail with its message', () => {
  assert.is(parseInt64('42'), 42);
  assert.is(parseInt64('+7'), 7);
  assert.is(parseInt64('-3'), -3);
  for (const text of ['', ' 1', '1.5', '0x10', '1e3', '1_000', 'abc']) {
    assert.throws(
      () => parseInt64(text),
      (e: Error) => e.message === `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
      text,
    );
  }
  assert.throws(() => parseInt64('9223372036854775808'), /value out of range/);
  const bad = rejection(() => parseListOptions(q('limit=ten')));
  assert.is(bad.code, 400);
  assert.is(bad.message, 'strconv.ParseInt: parsing "ten": invalid syntax');
  assert.is(rejection(() => parseListOptions(q('watch=1&timeoutSeconds=5s'))).code, 400);
});

test("the Python client's watch=True is a watch, and a watch from nowhere sends initial events (v1.32 default)", () => {
  const watch = parseListOptions(q('watch=True&timeoutSeconds=5'));
  assert.is(watch.watch, true);
  assert.is(watch.timeoutSeconds, 5);
  assert.is(watch.sendInitialEvents, true);
  assert.is(watch.resourceVersionMatch, 'NotOlderThan');
  const resumed = parseListOptions(q('watch=true&resourceVersion=1005'));
  assert.is(resumed.sendInitialEvents, undefined);
  assert.is(parseListOptions(q('watch=false')).watch, false);
  assert.is(parseListOptions(q('limit=0&watch=0')).watch, false);
});

test('list options are validated as the API server does, 422 against ListOptions.meta.k8s.io', () => {
  const noRv = rejection(() => parseListOptions(q('resourceVersionMatch=Exact')));
  assert.is(noRv.code, 422);
  assert.is(
    noRv.message,
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  );
  assert.equal(noRv.details?.causes, [
    {
      type: 'FieldValueForbidden',
      message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      field: 'resourceVersionMatch',
    },
  ]);
  assert.is(
    rejection(() => parseListOptions(q('resourceVersion=5&resourceVersionMatch=exact'))).message,
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "exact": supported values: "Exact", "NotOlderThan", ""',
  );
  assert.is(
    rejection(() => parseListOptions(q('sendInitialEvents=false'))).message,
    'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
  );
  assert.is(
    rejection(() => parseListOptions(q('watch=1&sendInitialEvents=true'))).message,
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
  );
  const opted = parseListOptions(q('watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan'));
  assert.is(opted.sendInitialEvents, false);
  assert.is(
    parseListOptions(q('resourceVersion=0&resourceVersionMatch=NotOlderThan')).resourceVersionMatch,
    'NotOlderThan',
  );
});

test('write options: dryRun must be All, fieldValidation one of four, force only on apply, apply needs a manager', () => {
  assert.equal(parseWriteOptions(q('dryRun=All&fieldManager=me&fieldValidation=Strict'), 'CreateOptions'), {
    dryRun: true,
    fieldManager: 'me',
    fieldValidation: 'Strict',
  });
  assert.is(
    rejection(() => parseWriteOptions(q('dryRun=true'), 'CreateOptions')).message,
    'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"true"}: supported values: "All"',
  );
  assert.is(
    rejection(() => parseWriteOptions(q('fieldValidation=strict'), 'UpdateOptions')).message,
    'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
  );
  assert.is(
    rejection(() => parseWriteOptions(q('force=true'), 'PatchOptions')).message,
    'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  );
  assert.is(
    rejection(() => parseWriteOptions(q('force=true'), 'PatchOptions', true)).message,
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  );
  assert.is(parseWriteOptions(q('fieldManager=m&force=True'), 'PatchOptions', true).force, true);
  assert.is(parseWriteOptions(q('fieldManager=m&force=0'), 'PatchOptions', true).force, false);
  assert.is(
    rejection(() => parseWriteOptions(q(`fieldManager=${'x'.repeat(129)}`), 'CreateOptions')).message,
    'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
  );
  assert.is(
    rejection(() => parseWriteOptions(q('fieldManager=a%09b'), 'CreateOptions')).message,
    'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)',
  );
});

test('delete options come from the body when there is one, else from the query, and are validated alike', () => {
  assert.equal(propagationOf(parseDeleteOptions(q('propagationPolicy=Foreground'), undefined)), 'Foreground');
  assert.equal(propagationOf(parseDeleteOptions(q('orphanDependents=True'), undefined)), 'Orphan');
  // A body replaces the query entirely.
  assert.equal(
    propagationOf(parseDeleteOptions(q('propagationPolicy=Orphan'), { kind: 'DeleteOptions' })),
    'Background',
  );
  assert.equal(parseDeleteOptions(q(''), { dryRun: ['All'], preconditions: { uid: 'u' } }), {
    dryRun: true,
    preconditions: { uid: 'u' },
  });
  assert.is(parseDeleteOptions(q('gracePeriodSeconds=0'), undefined).gracePeriodSeconds, 0);
  assert.is(rejection(() => parseDeleteOptions(q('gracePeriodSeconds=now'), undefined)).code, 400);
  assert.is(
    rejection(() => parseDeleteOptions(q('propagationPolicy=orphan'), undefined)).message,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "orphan": supported values: "Foreground", "Background", "Orphan", "nil"',
  );
  assert.is(
    rejection(() => parseDeleteOptions(q(''), { propagationPolicy: 'Orphan', orphanDependents: false })).message,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  );
});

test("a Table's includeObject is one of three policies or a 400", () => {
  assert.is(parseIncludeObject(q('')), 'Metadata');
  assert.is(parseIncludeObject(q('includeObject=Object')), 'Object');
  const bad = rejection(() => parseIncludeObject(q('includeObject=object')));
  assert.is(bad.code, 400);
  assert.is(
    bad.message,
    "Unable to convert to Table as requested: includeObject: Invalid value: \"object\": must be 'Metadata', 'Object', 'None', or empty",
  );
});

test('pod log options: malformed numbers are 400s, out-of-range ones a 422 on PodLogOptions', () => {
  checkPodLogOptions(q('tailLines=10&limitBytes=1&sinceSeconds=5&follow=true'), 'p');
  assert.is(rejection(() => checkPodLogOptions(q('tailLines=ten'), 'p')).code, 400);
  assert.is(
    rejection(() => checkPodLogOptions(q('tailLines=-1&limitBytes=0'), 'p')).message,
    'PodLogOptions "p" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]',
  );
  assert.is(
    rejection(() => checkPodLogOptions(q('sinceSeconds=0&sinceTime=2024-01-01T00:00:00Z'), 'p')).message,
    'PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
  );
});

test('timeout is a Go duration: a number needs a unit, units are ns to h', () => {
  for (const ok of ['0', '30s', '1m30s', '1.5h', '-2ms', '.5s', '300\u00b5s'])
    assert.is(goDurationError(ok), undefined, ok);
  assert.is(goDurationError('30'), 'time: missing unit in duration "30"');
  assert.is(goDurationError('3x'), 'time: unknown unit "x" in duration "3x"');
  assert.is(goDurationError('abc'), 'time: invalid duration "abc"');
  assert.is(
    rejection(() => checkRequestTimeout(q('timeout=30'))).message,
    'invalid timeout specified in the request URL - time: missing unit in duration "30"',
  );
  checkRequestTimeout(q('timeout=32s'));
});

test.run();
