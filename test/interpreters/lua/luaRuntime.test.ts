import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { luaReflectStatus } from '../../../src/interpreters/lua/luaHooks.ts';
import { checkLuaScript, isLuaRuntimeLoaded, loadLuaRuntime } from '../../../src/interpreters/lua/luaRuntime.ts';

test('checkLuaScript needs the runtime loaded first', () => {
  if (!isLuaRuntimeLoaded()) assert.throws(() => checkLuaScript('x = 1'), /not loaded/);
});

test('loading is idempotent', async () => {
  await Promise.all([loadLuaRuntime(), loadLuaRuntime()]);
  await loadLuaRuntime();
  assert.ok(isLuaRuntimeLoaded());
});

/** Runs `body` inside ReflectStatus and returns what it yields as the string `v`. */
const run = (body: string): unknown =>
  luaReflectStatus(`function ReflectStatus(o) local v = (function() ${body} end)() return { v = v } end`, {})?.v;

test('a syntax error reports its line within the script', () => {
  assert.equal(checkLuaScript('\n\nlocal x = {\n return x end'), {
    line: 4,
    message: "unexpected symbol near 'return'",
  });
  assert.is(checkLuaScript('function GetReplicas(o) return 1 end'), undefined);
  assert.throws(() => luaReflectStatus('x = = 1', {}), /<string>:1: unexpected symbol near '='/);
});

test('syntax Lua 5.1 lacks is refused as gopher-lua refuses it, at compile and at call, in code only', () => {
  const refused: [string, number, string][] = [
    ['local a = 7 // 2', 1, '//'],
    ['local a = 7 & 2', 1, '&'],
    ['local a = 7 | 2', 1, '|'],
    ['\nlocal a = 7 ~ 2', 2, '~'],
    ['local a = ~7', 1, '~'],
    ['local a = 1 << 2', 1, '<<'],
    ['local a = 4 >> 1', 1, '>>'],
    ['local a, b <const> = 1, 2', 1, '<'],
    ['local a <close> = nil', 1, '<'],
    ['local a = 0x1p4', 1, '0x1p4'],
    ['local a = 0x1.8', 1, '0x1.8'],
    ['for i = 1, 2 do\n  break\n  print(i)\nend', 3, 'print'],
    ['while true do break;; end', 1, ';'],
  ];
  for (const [script, line, near] of refused) {
    const error = checkLuaScript(script);
    assert.is(error?.line, line, script);
    assert.ok(error?.message.startsWith(`syntax error near '${near}'`), `${script}: ${error?.message}`);
  }
  assert.throws(
    () => luaReflectStatus('function ReflectStatus(o) return { v = 7 // 2 } end', {}),
    /<string>:1: syntax error near '\/\/'/,
  );
  for (const script of [
    "local s = 'a // b & c | d ~ e << f >> g' .. [==[ 1 // 2 ]==] -- x // y\n--[[ p & q ]] local n = 0x1e4",
    'local a, b = 1, 2 local c = a <b and a ~= b',
    'for i = 1, 2 do if i then break else break end end repeat break; until true',
    'for i = 1, 3 do if i == 2 then goto continue end ::continue:: end',
    'local function f() end local x = 0xFF + .5 + 5.e3 + 1E-2',
  ])
    assert.is(checkLuaScript(script), undefined, script);
});

test('a runaway loop times out after 1 s, even under pcall, and the next call still works', () => {
  // The deadline is read from Date.now(); a clock that moves 1 ms per reading makes the second exact, whatever the
  // machine's load: the call gives up at the first reading past it.
  const realNow = Date.now;
  const started = realNow();
  let readings = 0;
  Date.now = () => started + readings++;
  try {
    assert.throws(() => run('while true do pcall(function() while true do end end) end'), /context deadline exceeded/);
  } finally {
    Date.now = realNow;
  }
  // Readings: the deadline set, a thousand checks inside it, the one past it; then a few as the error unwinds.
  assert.ok(readings > 1_001 && readings < 1_010, `${readings} clock readings`);
  assert.is(run('return "alive"'), 'alive');
});

test('a memory bomb fails with an error, not a crash, and the engine stays usable', () => {
  assert.throws(() => run('local s = "xxxxxxxx" while true do s = s .. s end'), /not enough memory/);
  assert.is(run('return "alive"'), 'alive');
});

test('escapes are unavailable: io, os.execute, debug, coroutine, require("io"), loadlib', () => {
  assert.is(run('return tostring(io)'), 'nil');
  assert.is(run('return tostring(os.execute)'), 'nil');
  assert.is(run('return tostring(require("os").execute)'), 'nil');
  assert.is(run('return tostring(debug) .. tostring(coroutine) .. tostring(utf8)'), 'nilnilnil');
  assert.throws(() => run('return require("io")'), /module io not found:\n\tno field package.preload\['io'\]/);
  assert.throws(() => run('return package.loadlib("x", "y")'), /loadlib is not supported/);
});

test("setLib stubs: dofile, load, loadstring, getmetatable, rawset and the others raise Karmada's error", () => {
  for (const name of [
    'dofile',
    'loadfile',
    'load',
    'loadstring',
    'getmetatable',
    'setmetatable',
    'rawget',
    'rawset',
    'rawequal',
    'collectgarbage',
    'getfenv',
    'setfenv',
    'module',
    'newproxy',
  ]) {
    assert.throws(
      () => run(`return ${name}("x")`),
      new RegExp(`call function ${name} is not supported in karmada customized resourceinterpreter`),
    );
  }
});

test('string_safe: rep, gsub and dump are refused; long inputs are refused', () => {
  assert.throws(() => run('return string.rep("x", 3)'), /string.rep is not supported by Karmada/);
  assert.throws(() => run('return ("x"):gsub("x", "y")'), /string.gsub is not supported by Karmada/);
  assert.throws(() => run('return string.dump(print)'), /string.dump is not supported by Karmada/);
  assert.throws(
    () => run('local s = "0123456789" for i = 1, 17 do s = s .. s end return s:upper()'),
    /string length 1310720 exceeds the maximum allowed input string length 1000000/,
  );
});

test('string functions that remain behave as in Lua 5.1', () => {
  assert.is(run('return ("a,b"):find(",") .. ("Ab"):lower() .. ("abc"):sub(2) .. ("x=1"):match("=(%d)")'), '2abbc1');
  assert.is(run('local n = 0 for w in string.gfind("a b c", "%a") do n = n + 1 end return n'), 3);
});

test('string.match returns no value when nothing matches, and find gives 1, 0 for an empty pattern, as gopher-lua', () => {
  assert.is(run("return select('#', ('abc'):match('x'))"), 0);
  assert.throws(() => run("local t = {} table.insert(t, ('abc'):match('x')) return #t"), /wrong number of arguments/);
  assert.is(run("return select('#', ('abc'):match('(b)(c)'))"), 2);
  assert.is(run("local i, j = string.find('abc', '', 3) return i * 10 + j"), 10);
  assert.throws(() => run("return string.match(nil, 'x')"), /bad argument #1 to match \(string expected, got nil\)/);
});

test('gmatch splits as gopher-lua does: an empty match right after a non-empty one counts, a leading ^ anchors', () => {
  const collect = (subject: string, pattern: string) =>
    run(
      `local o = {} for w in string.gmatch('${subject}', '${pattern}') do o[#o + 1] = '<' .. w .. '>' end return table.concat(o)`,
    );
  assert.is(collect('a,b,,c', '([^,]*)'), '<a><><b><><><c><>');
  assert.is(collect('abab', '^ab'), '<ab>');
  assert.is(collect('a=1, b=2', '%w+'), '<a><1><b><2>');
  assert.is(run("local n = 0 for k, v in ('a=1,b=2'):gmatch('(%w)=(%w)') do n = n + v end return n"), 3);
});

test("find, match and gmatch read patterns with gopher-lua's grammar and raise its errors at the script's line", () => {
  assert.is(run('local i, j = string.find("ofF1", "%f[%u]") return i .. "-" .. j'), '2-3');
  assert.is(run('return tostring(string.find("a-z", "[%a-z]"))'), 'nil');
  assert.is(run('return select("#", string.match("x%", "%"))'), 0);
  assert.throws(() => run('\nlocal r = string.find("x", "(x")\nreturn r'), /^<string>:2: unfinished capture at EOS$/);
  assert.throws(() => run('local r = ("x"):match("x)") return r'), /^<string>:1: invalid '\)' at 0$/);
  assert.throws(() => run('local it = string.gmatch("x", "[") return 1'), /^<string>:1: unexpected EOS at 0$/);
});

test("gmatch's iterator takes its state from the generic for: called alone it fails, past the end it panics", () => {
  assert.is(
    run('local it, state = string.gmatch("a,b", "[^,]+") return it(state) .. it(state) .. type(state)'),
    'abuserdata',
  );
  assert.throws(() => run('local it = string.gmatch("a,b", "[^,]+") return it()'), /userdata expected, got nil/);
  assert.throws(
    () => run('local it, st = string.gmatch("a,b", "[^,]+") it(st) it(st) it(st) return it(st)'),
    /runtime error: index out of range \[3\] with length 2/,
  );
});

test('a plain find over a subject at the length limit is not refused, whatever the length of its pattern', () => {
  assert.is(
    run(
      'local s = "a" for i = 1, 19 do s = s .. s end local p = s:sub(1, 5000) .. "b" return tostring(string.find(s .. "b", p, 1, true))',
    ),
    '519289',
  );
});

test("a quoted string's escapes are gopher-lua's: one that is none stands for its character, a decimal keeps its low byte", () => {
  assert.is(checkLuaScript('local p = "^v\\d+\\.\\d+$"'), undefined);
  assert.is(
    run(String.raw`return "a\.b|" .. "\x41|" .. "\u{41}|" .. "a\z  b|" .. #"\256" .. string.byte("\256")`),
    'a.b|x41|u{41}|az  b|10',
  );
  assert.is(run(String.raw`return string.match("v1.2", "v\d") or string.find("a.b", "\.")`), 1);
  assert.is(run(String.raw`return "\065\066\t[[x]]"`), 'AB\t[[x]]');
  assert.throws(() => luaReflectStatus('local s = "a\\\nb"\n\nx = = 1', {}), /^<string>:4: /);
});

test('Lua 5.1 numbers: integral floats print as integers, %d takes a float, integers arrive as integers', () => {
  assert.is(run('return tostring(3/1) .. " " .. 6/2 .. " " .. 10/4'), '3 3 2.5');
  assert.is(run('return string.format("%d|%s|%5.1f|%x", 7/2, 4/2, 1/3, 255.0)'), '3|2|  0.3|ff');
  assert.is(run('return table.concat({ 1.0, 2, 0.5 }, ",")'), '1,2,0.5');
});

test('Lua 5.1 library: unpack, table.getn/maxn, math.pow/mod/atan2/log10/ldexp/frexp; no 5.4 extras', () => {
  assert.is(run('local a, b = unpack({ 1, 2 }) return a + b'), 3);
  assert.is(run('return table.getn({ 1, 2, 3 }) + table.maxn({ [7] = 1 })'), 10);
  assert.is(run('return math.pow(2, 10) + math.mod(7, 3) + math.log10(100) + math.ldexp(1, 3)'), 1035);
  assert.is(run('local m, e = math.frexp(8) return m * 10 + e'), 9);
  assert.is(run('return math.floor(math.atan2(1, 1) * 100)'), 78);
  assert.is(
    run('return tostring(table.pack) .. tostring(math.tointeger) .. tostring(string.pack) .. tostring(rawlen)'),
    'nilnilnilnil',
  );
  assert.is(run('return _VERSION'), 'Lua 5.1');
});

test('tonumber reads text as gopher-lua does: a float with a dot, an int64 in the base without, trimmed of blanks', () => {
  const read = (args: string) => run(`local v = tonumber(${args}) if v == nil then return 'nil' end return v`);
  const cases: [string, unknown][] = [
    ["'5e2'", 'nil'],
    ["'1.5e2'", 150],
    ["'0x10'", 16],
    ["'-0x10'", 'nil'],
    ["' 10 '", 10],
    ["'10\\r'", 'nil'],
    ["'1e400'", 'nil'],
    ["'1.5e400'", 'nil'],
    ["'9223372036854775808'", 'nil'],
    ["'-9223372036854775808'", -(2 ** 63)],
    ["'1.5', 10", 1.5],
    ["'ff', 16", 255],
    ["'0x10', 16", 'nil'],
    ["'10', 99", 'nil'],
    ["'25'", 25],
  ];
  for (const [args, expected] of cases) assert.is(read(args), expected, `tonumber(${args})`);
  assert.throws(() => run('return tonumber()'), /bad argument #1 to tonumber \(value expected\)/);
});

test("math.huge is gopher-lua's largest finite number: below 1/0, and a result holding it encodes", () => {
  assert.is(run('return math.huge < 1/0 and -math.huge > -1/0'), true);
  assert.is(run('return math.huge'), 1.7976931348623157e308);
  assert.equal(
    luaReflectStatus(
      'function ReflectStatus(o) local least = math.huge for _, v in ipairs({}) do least = v end return { least = least } end',
      {},
    ),
    { least: 1.7976931348623157e308 },
  );
});

test('oslib_safe: os.time and os.date only, with the Go layouts Karmada maps to', () => {
  assert.is(run('return os.date("!%Y-%m-%d %H:%M:%S", 0) ~= nil'), true);
  assert.is(run('return os.date("%Y", 0)'), String(new Date(0).getFullYear()));
  assert.is(run('return os.date("%a|%%|%q")'), 'mon|%|%q');
  assert.is(run('return type(os.time())'), 'number');
  assert.is(
    run(
      'return os.time({ year = 2020, month = 1, day = 1, hour = 0 }) - os.time({ year = 2020, month = 1, day = 2, hour = 0 })',
    ),
    -86400,
  );
  assert.is(run('return tostring(os.exit) .. tostring(os.getenv) .. tostring(os.remove)'), 'nilnilnil');
  assert.is(run('return os.date("*t", 0).yday'), 0);
});

test('the chunk runs again before each call: top-level definitions are reset', () => {
  const script = 'count = 0\nfunction ReflectStatus(o) count = count + 1 return { count = count } end';
  assert.equal(luaReflectStatus(script, {}), { count: 1 });
  assert.equal(luaReflectStatus(script, {}), { count: 1 });
});

test('assigning a global, even nil, replaces the built-in for the rest of the call and not for the next', () => {
  const script = `function ReflectStatus(o)
    local before = type(error)
    error = o.error
    local global = type(error)
    local t = _G.type
    _G.type = nil
    return { before = before, global = global, viaG = t(type), unset = error == nil }
  end`;
  const expected = { before: 'function', global: 'nil', viaG: 'nil', unset: true };
  assert.equal(luaReflectStatus(script, {}), expected);
  assert.equal(luaReflectStatus(script, {}), expected);
  assert.is(run('return type(error)'), 'function');
});

test("math reads its arguments as gopher-lua does: float64, no base for log, mod is Lua 5.1's % operator", () => {
  const values = run(`
    local r = {}
    for _, v in ipairs({ math.mod(-5, 3), math.mod(5, -3), math.mod(5, 0), math.mod('7', 4), math.fmod(5, 0),
        math.fmod(-5, 3), math.log(8, 2), math.log10(1000), math.atan(1, 2), math.atan2(1, 2), select(2, math.frexp(8)) }) do
      r[#r + 1] = tostring(v)
    end
    return table.concat(r, ' ')`);
  // gopher-lua v1.1.1 gives exactly these.
  assert.is(values, '1 -1 NaN 3 NaN -2 2.0794415416798357 3 0.7853981633974483 0.4636476090008061 4');
  assert.throws(() => run('return math.mod(nil, 2)'), /bad argument #1 to mod \(number expected, got nil\)/);
});

test("string.format's integer conversions read a number as Go's int64 and print a negative in hex or octal with its sign", () => {
  const formatted = run(
    "return string.format('%d %d %d %d|%x %X %o %#x|%5x|%-5x|%05x|%.3x|%x %x', 1/0, -1/0, 0/0, 2^63, -1, -255, -8, -255, -1, -1, -1, -1, -2^63, -3.5)",
  );
  // gopher-lua v1.1.1 gives exactly this.
  assert.is(
    formatted,
    '-9223372036854775808 -9223372036854775808 -9223372036854775808 -9223372036854775808|-1 -FF -10 -0xff|   -1|-1   |-0001|-001|-8000000000000000 -3',
  );
});

test("string.format is Go's fmt.Sprintf over gopher-lua's values, as strFormat hands it the format", () => {
  // Each expected text is what gopher-lua v1.1.1 returns for the same call.
  const cases: [string, string][] = [
    ["('%g', 1234567)", '1.234567e+06'],
    ["('%g', 2^53)", '9.007199254740992e+15'],
    ["('%.3g', 1234567)", '1.23e+06'],
    ["('%f', 1/0)", '+Inf'],
    ["('%05.1f', -1/0)", ' -Inf'],
    ["('%+f', 0/0)", '+NaN'],
    ["('%.0f', 2.5)", '2'],
    ["('%.2f', 0.125)", '0.12'],
    ["('%d %s', 1)", '1 %!s(MISSING)'],
    ["('%u', 5)", '%!u(int64=5)'],
    ["('%a', 5)", '%!a(int64=5)'],
    ["('%t', 5.5)", '%!t(float64=5.5)'],
    ["('%c', 200)", 'È'],
    ["('%d', 'x')", '0'],
    ["('%5d', '12')", '   12'],
    ["('%d', true)", '%!d(lua.LBool=true)'],
    ["('%d', nil)", '&{}'],
    ["('%q', 'a\"b\\n\\0c\\255')", '"a\\"b\\n\\x00c\\xff"'],
    ["('%q', 5)", '"5"'],
    ["('%x', 'hi')", '6869'],
    ["('%5s|%-5s|', '\u00e9', '\u00e9')", '    é|é    |'],
    ["('%05s', 'ab')", '000ab'],
    ["('%[2]d %[1]d', 1, 2)", '2 1'],
    ["('%*d', 5, 1)", '%!(BADWIDTH)%!d(MISSING)'],
    ["('%5', 1)", '%!(NOVERB)%!(EXTRA lua.LNumber=1)'],
    ["('%U', 200)", 'U+00C8'],
    ["('%s', 12345678901234567890)", '1.2345678901234567e+19'],
    ['(12)', '12'],
  ];
  for (const [call, expected] of cases) assert.is(run(`return string.format${call}`), expected, call);
  assert.throws(() => run('return string.format()'), /bad argument #1 to format \(string expected, got nil\)/);
});

test("table positions are gopher-lua's: truncated, and past either end an assignment or a no-op, never an error", () => {
  const inserted = run(`
    local r = {}
    local function ins(...)
      local t = { 1, 2, 3 }
      table.insert(t, ...)
      return table.concat(t, ';', 1, table.maxn(t)) .. '/' .. tostring(t[0]) .. tostring(t[-1])
    end
    local function rem(...)
      local t = { 1, 2, 3 }
      return tostring(table.remove(t, ...)) .. '>' .. table.concat(t, ';')
    end
    for _, v in ipairs({ ins(0, 'x'), ins(2.5, 'x'), ins(-1, 'x'), ins(4, 'x'), ins(1, 'x', 'y'), ins('x'),
        rem(10), rem(0), rem(-1), rem(1.5), rem(4), rem(), tostring(table.remove({}, 2)) }) do
      r[#r + 1] = v
    end
    return table.concat(r, ' ')`);
  // gopher-lua v1.1.1 gives exactly these.
  assert.is(
    inserted,
    '1;2;3/xnil 1;x;2;3/nilnil 1;2;3/nilx 1;2;3;x/nilnil x;1;2;3/nilnil 1;2;3;x/nilnil nil>1;2;3 3>1;2 3>1;2 1>2;3 nil>1;2;3 3>1;2 nil',
  );
  const concatenated = run(`
    local t = { 1, 2, 3 }
    return table.concat({ table.concat(t, ';', 2, 5), table.concat(t, ';', 1.5, 2.5), table.concat(t, ';', 0, 2),
      table.concat(t, ';', -1, 2), table.concat(t, ';', 5), table.concat(t, ';', 0), table.concat(t, ';', 3, 1) }, '|')`);
  assert.is(concatenated, '2;3|1;2|1;2|1;2|||');
  const unpacked = run(`
    local a, b, c = unpack({ 1, 2, 3 }, 1.5, 2.9)
    return tostring(a) .. tostring(b) .. tostring(c) .. select('#', unpack({}, 1, 0)) .. select(2.5, 'a', 'b', 'c')
      .. select(-1, 'a', 'b') .. select('#', select(5, 1, 2)) .. table.getn({ 1, nil, 3 })
      .. table.maxn({ 1, [5] = 1, [2.5] = 1, [-3] = 1 })`);
  assert.is(unpacked, '12nil0bb035');
});

test('table, unpack and select check their arguments as gopher-lua does, with its messages', () => {
  const messages = run(`
    local r = {}
    for _, f in ipairs({ function() table.insert({}) end, function() table.insert({}, '1', 'x') end,
        function() table.remove({ 1 }, '1') end, function() table.concat({ 1, 2 }, 1) end,
        function() table.concat({ 1, {} }) end, function() table.sort({ 2, 1 }, nil) end,
        function() table.getn('x') end, function() unpack('abc') end, function() select('2', 'a') end,
        function() select() end }) do
      local ok, e = pcall(f)
      r[#r + 1] = e
    end
    return table.concat(r, '|')`);
  // Each is raised at the script's line, as gopher-lua raises it.
  assert.equal(String(messages).split('|'), [
    '<string>:3: wrong number of arguments',
    '<string>:3: bad argument #2 to insert (number expected, got string)',
    '<string>:4: bad argument #2 to remove (number expected, got string)',
    '<string>:4: bad argument #2 to concat (string expected, got number)',
    '<string>:5: invalid value (table) at index 2 in table for concat',
    '<string>:5: bad argument #2 to sort (function expected, got nil)',
    '<string>:6: bad argument #1 to getn (table expected, got string)',
    '<string>:6: bad argument #1 to unpack (table expected, got string)',
    "<string>:6: bad argument #1 to select (invalid string '2')",
    '<string>:7: bad argument #1 to select (number or string expected, got nil)',
  ]);
});

test("string positions are gopher-lua's: truncated toward zero and clamped to the string, a number only", () => {
  const values = run(`
    local r = {}
    for _, v in ipairs({ ('hello'):sub(1.5, 3.7), ('hello'):sub(-1.5), ('hello'):sub(2, -1.5), ('hello'):sub(-10, 2),
        ('hello'):sub(3, 100), ('hello'):sub(0), string.char(72.7, 300, -191), table.concat({ ('hello'):byte() }, ','),
        table.concat({ ('hello'):byte(1.9) }, ','), table.concat({ ('hello'):byte(2, nil) }, ','),
        table.concat({ ('hello'):byte(-10, 2) }, ','), select('#', ('hello'):byte(0)),
        table.concat({ ('hello'):find('l', 3.5) }, ','), table.concat({ ('hello'):find('l', -10) }, ','),
        table.concat({ ('hello'):find('', 10) }, ','), tostring(('hello'):match('l+', 1.5)),
        select('#', ('hello'):match('l+', 10)), ('hello'):match('', 3) }) do
      r[#r + 1] = tostring(v)
    end
    return table.concat(r, '|')`);
  // gopher-lua v1.1.1 gives exactly these.
  assert.is(values, 'hel|o|ello|he|llo|hello|H,A|104,101,108,108,111|104|101,108,108,111|104,101|0|3,3|3,3|1,0|ll|0|');
  const messages = run(`
    local r = {}
    for _, f in ipairs({ function() local v = ('hello'):sub('2') end, function() local v = ('hello'):sub() end,
        function() local v = ('hello'):byte('2') end, function() local v = string.char('72') end,
        function() local v = ('hello'):find('l', '4') end, function() local v = ('hello'):match('l', '4') end,
        function() local v = string.len() end, function() local v = string.upper({}) end,
        function() local v = ('hello'):find('l', 10, true) end }) do
      local ok, e = pcall(f)
      r[#r + 1] = e
    end
    return table.concat(r, '|')`);
  assert.equal(String(messages).split('|'), [
    '<string>:3: bad argument #2 to sub (number expected, got string)',
    '<string>:3: bad argument #2 to sub (number expected, got nil)',
    '<string>:4: bad argument #2 to byte (number expected, got string)',
    '<string>:4: bad argument #1 to char (number expected, got string)',
    '<string>:5: bad argument #3 to find (number expected, got string)',
    '<string>:5: bad argument #3 to match (number expected, got string)',
    '<string>:6: bad argument #1 to len (string expected, got nil)',
    '<string>:6: bad argument #1 to upper (string expected, got table)',
    // A plain find from past the end panics in Go's slicing; pcall returns the panic's text.
    'runtime error: slice bounds out of range [9:5]',
  ]);
});

test('string.format refuses a result past the memory a hook may use, before building it whole', () => {
  const rss = process.memoryUsage().rss;
  assert.throws(
    () =>
      run(`
        local f, t = '%999999d', {}
        for i = 1, 9 do f = f .. f end
        for i = 1, 512 do t[i] = 1 end
        return #string.format(f, unpack(t))`),
    /string\.format: the result passes 67108864 bytes, the memory a hook may use/,
  );
  assert.ok(process.memoryUsage().rss - rss < 512 * 1024 * 1024, 'no half-gigabyte string was built');
  assert.is(run("return #string.format('%999999d', 1)"), 999999);
});

test('string.gmatch iterators of one call hold no more than the memory a hook may use; one over a large subject still runs', () => {
  // 999,999 bytes (Karmada's string library refuses longer input): each iterator keeps the subject and its matches.
  const subject = "local s = 'a' for i = 1, 19 do s = s .. s end s = s .. string.sub(s, 1, 475711)";
  assert.throws(
    () => run(`${subject} local its = {} for i = 1, 200 do its[i] = string.gmatch(s, '^()') end return #its`),
    /string\.gmatch: the matches pass 67108864 bytes, the memory a hook may use/,
  );
  assert.is(
    run(`${subject} local n = 0 for i = 1, 200 do for p in string.gmatch(s, '^()') do n = n + p end end return n`),
    200,
  );
});

test.run();
