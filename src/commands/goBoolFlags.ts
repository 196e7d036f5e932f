import { UsageError } from '../errors/UsageError.ts';

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/**
 * kubectl's boolean flags read as pflag reads them: `--name` is true, `--name=VALUE` takes strconv.ParseBool's values,
 * and a separate word after it is never its value; the last one given wins. Node's parseArgs refuses `--name=false`,
 * so these are taken out of argv before it runs. Words after `--` are left alone. Pure.
 */
export function readGoBoolFlags<Name extends string>(
  argv: readonly string[],
  names: readonly Name[],
): { values: Partial<Record<Name, boolean>>; rest: string[] } {
  const values: Partial<Record<Name, boolean>> = {};
  const rest: string[] = [];
  let ended = false;
  for (const arg of argv) {
    const flag = ended ? null : /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
    if (arg === '--') ended = true;
    const name = flag?.[1] as Name | undefined;
    if (!flag || !name || !names.includes(name)) {
      rest.push(arg);
      continue;
    }
    const value = flag[2] ?? 'true';
    if (TRUE.includes(value)) values[name] = true;
    else if (FALSE.includes(value)) values[name] = false;
    else
      throw new UsageError(
        `invalid argument "${value}" for "--${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
      );
  }
  return { values, rest };
}
