// A flotilla command as a real child process whose JSON log lines can be awaited: the crash-safety test and the
// reliability suite's process faults kill it with -9 at a chosen step and start it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { LogEvents } from './logEvents.ts';
import { FLOTILLA_BIN as BIN } from './flotillaBin.ts';

export interface Child {
  child: ChildProcess;
  events: LogEvents;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** kill -9, and wait until it is gone. */
  kill9(): Promise<void>;
  /** SIGTERM, and the exit code of a clean stop. */
  stop(): Promise<number | null>;
}

/** A flotilla command as its own process; its JSON log lines (stdout) feed `events`. */
export function spawnFlotilla(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const events = new LogEvents();
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('{')) events.log(JSON.parse(line) as Record<string, unknown>);
    }
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    events,
    exited,
    stderr: () => stderr,
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}
