import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { changedText, SOURCE_COMMIT_ANNOTATION } from '../../src/works/changedText.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const cm = (value: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', annotations: { team: 'a' } },
  data: { k: value },
});

test("the text is stamped with the source commit after the object's own annotations", () => {
  const text = changedText(cm('1'), undefined, A)!;
  assert.match(
    text,
    new RegExp(`annotations:\\n    team: a\\n    ${SOURCE_COMMIT_ANNOTATION.replace('.', '\\.')}: ${A}\\n`),
  );
});

test('a previous file that differs only by its stamp is kept: the stamp names the commit that last changed the object', () => {
  const previous = changedText(cm('1'), undefined, A)!;
  assert.is(changedText(cm('1'), previous, B), undefined);
  assert.match(changedText(cm('2'), previous, B)!, new RegExp(B));
});

test('the object given is not changed by stamping', () => {
  const obj = cm('1');
  changedText(obj, undefined, A);
  assert.equal(obj.metadata.annotations, { team: 'a' });
});

test.run();
