import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '../types.ts';

export interface PersistedState {
  resourceVersion: number;
  objects: { resource: string; object: KubeObject }[];
}

const STATE_FILE = 'state.json';

export function readState(dataDir: string): PersistedState | undefined {
  const file = path.join(dataDir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PersistedState;
}

/** Writes to a temp file and renames it over the old one, so a crash mid-write never leaves half a state. */
export function writeState(dataDir: string, state: PersistedState): void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, STATE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, file);
}
