// Prints the order in which pairs() visits a table of eight keys, for a test to compare two processes.
import { callLuaFunction, loadLuaRuntime } from '../../../../src/interpreters/lua/luaRuntime.ts';

await loadLuaRuntime();
const [order] = callLuaFunction(
  `function F(obj)
    local keys = {}
    for key in pairs(obj) do keys[#keys + 1] = key end
    return table.concat(keys, ",")
  end`,
  'F',
  [{ zeta: 1, alpha: 2, mid: 3, beta: 4, omega: 5, team: 6, app: 7, tier: 8 }],
  1,
);
process.stdout.write(`${(order as { value: string }).value}\n`);
