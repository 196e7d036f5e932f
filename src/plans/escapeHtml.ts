/**
 * Text placed inside an HTML element of a PR comment (`<summary>`): tags and entities become literal, and no line
 * break survives, a lone carriage return (a line ending to CommonMark) and Unicode's line separators included.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ');
}
