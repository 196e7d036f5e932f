// What a long command is doing while it works, for a person at a terminal: a render of a large fleet, or a plan's two,
// take seconds to minutes with nothing else to show. One line on stderr, rewritten in place with the time the phase
// has taken, cleared before the command prints its answer; nothing at all when stderr is not a terminal (CI logs, a
// pipe), so what scripts read is unchanged.
import { terminalSafe } from '../text/terminalSafe.ts';

export interface WorkingLine {
  /** Shows `text` as what is being done now; its clock starts again. */
  phase(text: string): void;
  /** Clears the line; the command's own output follows. Safe to call twice. */
  done(): void;
}

export interface WorkingLineOptions {
  /** Milliseconds since some moment (Date.now); injectable so the seconds shown can be checked. */
  now?: () => number;
  /** How often the seconds are rewritten (ms). */
  everyMs?: number;
}

const CLEAR = '\r\x1b[K';

/** A working line written through `write` when `terminal`; a line that writes nothing otherwise. */
export function workingLine(
  write: (s: string) => void,
  terminal: boolean,
  { now = Date.now, everyMs = 1000 }: WorkingLineOptions = {},
): WorkingLine {
  if (!terminal) return { phase: () => {}, done: () => {} };
  let text = '';
  let since = now();
  let timer: NodeJS.Timeout | undefined;
  const show = () => {
    const seconds = Math.floor((now() - since) / 1000);
    // A phase may name a revision the user typed: shown as the characters it holds, never as controls.
    write(`${CLEAR}${terminalSafe(text)}…${seconds > 0 ? ` ${seconds}s` : ''}`);
  };
  return {
    phase(next) {
      text = next;
      since = now();
      show();
      // The line must never keep the process alive once the command is done with it.
      timer ??= setInterval(show, everyMs).unref();
    },
    done() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      write(CLEAR);
    },
  };
}
