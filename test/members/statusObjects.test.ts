import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { alreadyExists, ApiError, invalid, invalidFields, notFound } from '../../src/members/ApiError.ts';

// Failure Status objects as kube-apiserver marshals them: StatusDetails and StatusCause fields are all omitempty,
// and a cause's type is the JSON field `reason`.

test("a core kind's Status details leave the empty group out", () => {
  assert.equal(notFound('', 'configmaps', 'x').toStatus().details, { name: 'x', kind: 'configmaps' });
  assert.equal(alreadyExists('apps', 'deployments', 'web').toStatus().details, {
    name: 'web',
    group: 'apps',
    kind: 'deployments',
  });
});

test('an invalid object without a name has no name in its details, and its causes say reason', () => {
  const status = invalid(
    'ConfigMap',
    '',
    '',
    'metadata.name',
    'Required value: name or generateName is required',
  ).toStatus();
  assert.equal(status.details, {
    kind: 'ConfigMap',
    causes: [
      {
        reason: 'FieldValueInvalid',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ],
  });
  const several = invalidFields('Secret', '', 's', [
    { type: 'FieldValueRequired', field: 'data', body: 'Required value' },
  ]).toStatus();
  assert.equal(several.details, {
    name: 's',
    kind: 'Secret',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'data' }],
  });
});

test('a Status without details has no details field', () => {
  assert.not.ok('details' in new ApiError(400, 'BadRequest', 'no').toStatus());
});

test.run();
