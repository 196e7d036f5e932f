import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goBase64Error, invalidBase64Values } from '../../src/api/bytesFields.ts';
import { validateBytesFields } from '../../src/documents/schema/validateBytesFields.ts';

test("where Go's base64.StdEncoding.Decode stops: padding required, line breaks skipped, nothing after the padding", () => {
  // Each offset as go1.19's encoding/base64 gives it for the same text (CorruptInputError), undefined where it decodes.
  const cases: [string, number | undefined][] = [
    ['aGVsbG8=', undefined],
    ['aGVsbG8', 4],
    ['hunter2-not-base64!', 7],
    ['aGVs\nbG8=', undefined],
    ['aGVsbA==', undefined],
    ['aGVsbA=', 7],
    ['aGVsbA===', 8],
    ['aGVsbA==x', 8],
    ['a', 0],
    ['ab', 0],
    ['abc', 0],
    ['abcd', undefined],
    ['ab==', undefined],
    ['a===', 1],
    ['=abc', 0],
    ['aGVsbG8=\n\n', undefined],
    ['aGVs bG8=', 4],
    ['', undefined],
    ['aGVsbA=\n=', undefined],
    ['ab=\n', 4],
    ['é', 0],
    ['YWJj\r\nZGVm', undefined],
    ['aGVsbA=\n', 8],
  ];
  for (const [text, offset] of cases) assert.is(goBase64Error(text), offset, JSON.stringify(text));
});

test('the bytes fields of built-in kinds are checked, and only those: stringData and custom kinds take any text', () => {
  assert.equal(
    invalidBase64Values({ data: { ok: 'aGk=', bad: 'hunter2' }, stringData: { plain: 'hunter2' } }, 'v1', 'Secret').map(
      (f) => [f.path, f.offset, f.what],
    ),
    [[['data', 'bad'], 4, 'data key bad']],
  );
  assert.equal(invalidBase64Values({ data: { bad: 'hunter2' } }, 'example.com/v1', 'Secret'), []);
  assert.equal(
    invalidBase64Values({ spec: { caBundle: 'x' } }, 'apiregistration.k8s.io/v1', 'APIService').map((f) => f.path),
    [['spec', 'caBundle']],
  );
  assert.equal(
    invalidBase64Values(
      { webhooks: [{ clientConfig: { caBundle: 'aGk=' } }, { clientConfig: { caBundle: 'x y' } }] },
      'admissionregistration.k8s.io/v1',
      'MutatingWebhookConfiguration',
    ).map((f) => [f.path, f.what]),
    [[['webhooks', 1, 'clientConfig', 'caBundle'], 'caBundle of webhook 1']],
  );
});

test("a Secret's data that is not base64 is an error at the value that never shows it, with the fix", () => {
  const [issue, ...rest] = validateBytesFields({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's' },
    data: { password: 'hunter2-not-base64!' },
  });
  assert.equal(rest, []);
  assert.equal(issue!.path, ['data', 'password']);
  assert.is(issue!.code, 'INVALID_VALUE');
  assert.match(issue!.message, 'Secret data key password is not base64 (illegal base64 data at input byte 7)');
  assert.not.match(`${issue!.message} ${issue!.fix}`, 'hunter2');
  assert.match(issue!.fix, 'stringData');
});

test.run();
