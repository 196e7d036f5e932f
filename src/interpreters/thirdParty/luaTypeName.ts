/** The Lua type of a value as a script holds it, for error messages: nil, table, string, number or boolean. */
export function luaType(value: unknown): string {
  if (value === undefined || value === null) return 'nil';
  return typeof value === 'object' ? 'table' : typeof value;
}
