/**
 * An upper bound on how deep a YAML or JSON text nests, read from the text alone (no parser, no stack): the flow
 * brackets' depth or half the deepest indentation, whichever is more. A document deeper than a limit is refused before
 * a recursive reader could run out of stack on it.
 */
export function maxNesting(text: string): number {
  // Flow collections ([{...}]) nest without indentation; block nesting shows as indentation.
  let depth = 0;
  let max = 0;
  let indentMax = 0;
  let inQuote: string | null = null;
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      inQuote = null;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '-') {
        indent++;
        continue;
      }
      lineStart = false;
      if (indent > indentMax) indentMax = indent;
    }
    if (inQuote) {
      if (c === inQuote) inQuote = null;
      continue;
    }
    if (c === '"' || c === "'") inQuote = c;
    else if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth > max) max = depth;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  // Two spaces per level is the common style; one is the tightest.
  return Math.max(max, Math.floor(indentMax / 2));
}
