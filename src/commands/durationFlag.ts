import { UsageError } from '../errors/UsageError.ts';
import { parseDuration } from '../time/parseDuration.ts';

/** A duration flag's value in milliseconds (`30s`, `5m`), or the usage error naming the flag. */
export function durationFlagMs(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms instanceof Error) throw new UsageError(`--${flag} ${ms.message}`);
  return ms;
}
