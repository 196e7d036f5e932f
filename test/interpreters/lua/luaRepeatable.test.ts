// A hook's result depends on its script and its arguments only: not on the calls before it, not on the process, and no
// pattern can hold the process past its deadline. A replay (verify) and a sync then agree.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { callLuaFunction, LuaHookError, loadLuaRuntime } from '../../../src/interpreters/lua/luaRuntime.ts';

const call = (body: string) => callLuaFunction(`function F(obj) ${body} end`, 'F', [{}], 1)[0];

test('what a call leaves in a global is gone by the next call of the same script', async () => {
  await loadLuaRuntime();
  const counter = 'n = (n or 0) + 1; _G.seen = (_G.seen or 0) + 1; return n * 10 + seen';
  assert.equal(call(counter), { type: 'number', value: 11 });
  assert.equal(call(counter), { type: 'number', value: 11 });
  assert.equal(call('return type(string.find)'), { type: 'string', value: 'function' }, 'the sandbox stays readable');
});

// The same text may be two customizations' script (for two kinds, from two pull requests): one engine runs both.
const LIBRARY_USER = `
function F(obj)
  if obj.mutate then
    string.upper = nil
    string.shout = function(s) return s .. '!' end
    math.floor = function() return 0 end
    table.insert = nil
    os.time = nil
    local kube = require('kube')
    kube.resourceAdd = nil
    package.preload.kube = function() return { resourceAdd = 'fake' } end
    package.loaded.string = nil
  end
  return type(string.upper) .. ' ' .. type(('a').upper) .. ' ' .. type(('a').shout) .. ' ' .. math.floor(2.5) .. ' ' ..
    type(table.insert) .. ' ' .. type(os.time) .. ' ' .. type(require('kube').resourceAdd) .. ' ' ..
    type(package.loaded.string)
end`;
const PRISTINE = 'function function nil 2 function function function table';

test('what a call changes in string, table, math, os and the kube module lasts for that call only', async () => {
  await loadLuaRuntime();
  const run = (script: string, obj: object) => callLuaFunction(script, 'F', [obj], 1)[0];
  assert.equal(run(LIBRARY_USER, { mutate: true }), { type: 'string', value: 'nil nil function 0 nil nil nil nil' });
  assert.equal(run(LIBRARY_USER, { kind: 'Other' }), { type: 'string', value: PRISTINE }, 'the same script');
  const other = `${LIBRARY_USER}\n-- another customization's script`;
  assert.equal(run(other, {}), { type: 'string', value: PRISTINE }, 'another script');
});

test('a call sees its own changes to the libraries, strings included', async () => {
  await loadLuaRuntime();
  const changed = `
    string.upper = nil
    string.shout = function(s) return s .. '!' end
    math.floor = function() return 0 end
    package.preload.kube = function() return { resourceAdd = 'fake' } end
    return type(('a').upper) .. ' ' .. ('a'):shout() .. ' ' .. math.floor(2.5) .. ' ' .. require('kube').resourceAdd`;
  assert.equal(call(changed), { type: 'string', value: 'nil a! 0 fake' });
  assert.equal(call('return ("a"):upper() .. math.floor(2.5)'), { type: 'string', value: 'A2' });
});

test("require('_G') is the call's globals, gone by the next call", async () => {
  await loadLuaRuntime();
  assert.equal(call("require('_G').seen = 1 return seen"), { type: 'number', value: 1 });
  assert.equal(call('package.loaded._G.seen = 2 return _G.seen'), { type: 'number', value: 2 });
  assert.equal(call('return type(seen)'), { type: 'string', value: 'nil' });
});

test('a backtracking pattern that would run past the deadline stops there, even under pcall', async () => {
  await loadLuaRuntime();
  // Each start expands over the rest of the subject and backs off over all of it: n² steps, minutes of matching.
  const long = "local t = {} for i = 1, 20000 do t[i] = 'a' end local s = table.concat(t)";
  for (const body of ['return string.find(s, "a+b")', 'pcall(string.find, s, "(a*)%1b") while true do end']) {
    const started = Date.now();
    try {
      call(`${long} ${body}`);
      assert.unreachable(`${body} stopped`);
    } catch (err) {
      assert.instance(err, LuaHookError);
      assert.is((err as Error).message, 'context deadline exceeded');
    }
    assert.ok(Date.now() - started < 3000, `${body} stopped within the deadline`);
  }
});

test('ordinary patterns over a subject at the length limit match at once', async () => {
  await loadLuaRuntime();
  const long = "local s = 'a' for i = 1, 19 do s = s .. s end s = s .. '2023-10-11'";
  assert.equal(call(`${long} return select(3, string.find(s, '(%d+)-(%d+)-(%d+)'))`), {
    type: 'string',
    value: '2023',
  });
  assert.equal(call(`${long} return string.find(s, 'a2023-', 1, true)`), { type: 'number', value: 524288 });
  assert.equal(call(`${long} local n = 0 for w in s:gmatch('%d+') do n = n + 1 end return n`), {
    type: 'number',
    value: 3,
  });
  assert.equal(call('return string.match("nginx:1.27", "^(.*):(.*)$")'), { type: 'string', value: 'nginx' });
});

test('a timestamp split by six quantified captures is matched', async () => {
  await loadLuaRuntime();
  const stamp = "'2023-10-11T12:00:00Z'";
  assert.equal(
    call(
      `local y, mo, d, h, mi, s = string.match(${stamp}, '(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)') return y .. mo .. d .. h .. mi .. s`,
    ),
    {
      type: 'string',
      value: '20231011120000',
    },
  );
  assert.equal(call(`local n = 0 for part in string.gmatch(${stamp}, '(%d+)-*') do n = n + 1 end return n`), {
    type: 'number',
    value: 6,
  });
});

test("a result nested deeper than the host can read is the hook's error, not the process's", async () => {
  await loadLuaRuntime();
  try {
    call('local t = {} local c = t for i = 1, 100000 do c.n = {} c = c.n end return t');
    assert.unreachable('refused');
  } catch (err) {
    assert.instance(err, LuaHookError);
    assert.match((err as Error).message, 'the result cannot be read');
  }
});

test('pairs visits a table in the same order in every process', () => {
  const script = path.resolve(import.meta.dirname, 'helpers/pairsOrder.ts');
  const run = () => spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
  const first = run();
  const second = run();
  assert.is(first.status, 0, first.stderr);
  assert.match(first.stdout, /^(\w+,){7}\w+\n$/);
  assert.is(second.stdout, first.stdout);
});

test.run();
