import { UsageError } from '../errors/UsageError.ts';
import { parseQuantity } from '../quantities/parseQuantity.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';

/** The `parseArgs` options of the two per-commit limits, shared by render, sync, verify and run. */
export const RENDER_LIMIT_OPTIONS = {
  'max-source-files': { type: 'string' },
  'max-output-bytes': { type: 'string' },
} as const;

export const RENDER_LIMITS_HELP = `  --max-source-files N    Source files one render reads (default: 50000); raise it for a larger fleet
  --max-output-bytes SIZE Bytes one render may write, e.g. 8Gi (default: 512Mi); raise it for a larger fleet`;

/**
 * The flags as RenderLimits: a whole number of files, and bytes as a Kubernetes quantity (`8Gi`, `500M`, `1073741824`),
 * both at least 1. Absent flags stay absent, so the defaults apply.
 */
export function parseRenderLimits(values: { 'max-source-files'?: string; 'max-output-bytes'?: string }): RenderLimits {
  const files = values['max-source-files'];
  const bytes = values['max-output-bytes'];
  return {
    ...(files !== undefined ? { maxSourceFiles: wholeNumber('--max-source-files', files, 'e.g. 200000') } : {}),
    ...(bytes !== undefined ? { maxOutputBytes: byteCount('--max-output-bytes', bytes) } : {}),
  };
}

function wholeNumber(flag: string, text: string, example: string): number {
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag} ${text}: use a whole number of at least 1, ${example}`);
  return n;
}

function byteCount(flag: string, text: string): number {
  const q = parseQuantity(text);
  const usage = `${flag} ${text}: use a whole number of bytes of at least 1, e.g. 8Gi, 500Mi or 1073741824`;
  // A fraction of a byte (0.5, 100m) is no size.
  if (!q || q.num % q.den !== 0n) throw new UsageError(usage);
  const value = q.num / q.den;
  if (value < 1n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw new UsageError(usage);
  return Number(value);
}
