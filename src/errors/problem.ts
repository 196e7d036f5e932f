// Problems in the user's YAML are data, collected and returned, never thrown: one run lists every bad file.
import type { ProblemCode } from './codes.ts';

export interface SourceSpan {
  /** Repo-relative path of the file. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface Problem extends SourceSpan {
  code: ProblemCode;
  severity: 'error' | 'warning';
  message: string;
  fix: string;
  data?: Record<string, unknown>;
}

/** `path:line:col  error  CODE  message` then `  fix: …`, the format every command prints. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}  ${p.severity}  ${p.code}  ${p.message}\n  fix: ${p.fix}`;
}

export function compareProblems(a: Problem, b: Problem): number {
  return a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}
