import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanGoJson } from '../../src/api/goJsonScan.ts';

const syntax = (text: string | Buffer) => scanGoJson(typeof text === 'string' ? Buffer.from(text) : text).syntaxError;

test("Go's syntax errors name the byte where its scanner stops and what it was looking for", () => {
  assert.is(syntax('{"a":1}'), undefined);
  assert.is(syntax('{"a":'), 'unexpected end of JSON input');
  assert.is(syntax(''), 'unexpected end of JSON input');
  assert.is(syntax('{"a":1,}'), "invalid character '}' looking for beginning of object key string");
  assert.is(syntax('{"a":1 "b":2}'), `invalid character '"' after object key:value pair`);
  assert.is(syntax('{"a" 1}'), "invalid character '1' after object key");
  assert.is(syntax('[1,]'), "invalid character ']' looking for beginning of value");
  assert.is(syntax('01'), "invalid character '1' after top-level value");
  assert.is(syntax("{'a':1}"), "invalid character '\\'' looking for beginning of object key string");
  assert.is(syntax('"a\tb"'), "invalid character '\\t' in string literal");
  assert.is(syntax('"\\u00zz"'), "invalid character 'z' in \\u hexadecimal character escape");
  // At the end of input Go's scanner is fed a space, so a value cut inside a literal or a number fails on that space.
  assert.is(syntax('tr'), "invalid character ' ' in literal true (expecting 'u')");
  assert.is(syntax('1.'), "invalid character ' ' after decimal point in numeric literal");
  assert.is(syntax('1e+'), "invalid character ' ' in exponent of numeric literal");
  // A byte is shown as the rune of its number: the first byte of é, a C1 control, a BOM.
  assert.is(syntax('é'), "invalid character 'Ã' looking for beginning of value");
  assert.is(syntax(Buffer.from([0x85])), "invalid character '\\u0085' looking for beginning of value");
  assert.is(syntax('\ufeff{}'), "invalid character 'ï' looking for beginning of value");
  assert.is(syntax(`${'['.repeat(10001)}${']'.repeat(10001)}`), "invalid character '[' exceeded max depth");
  assert.is(syntax(`${'['.repeat(10000)}${']'.repeat(10000)}`), undefined);
});

test.run();
