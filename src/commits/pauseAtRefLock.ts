import nodeFs from 'node:fs';
import path from 'node:path';

/**
 * A testing knob, off unless asked for: node's fs, except that an update of one of `refs` stops for good right
 * after git's `<ref>.lock` is created and its holder is written into it (updateRef's owner line), that is with the
 * new objects written and the ref not yet moved. A process paused there can be killed -9 at exactly that point of
 * its pipeline, in whichever repository it opens (the reliability suite does, with FLOTILLA_FAULT_PAUSE_AT, which
 * only cli.ts reads). Every other file operation is node's own. `armed` picks which update: e.g. only once the pass
 * has applied (the status commit after apply, not the planned inventory written before it).
 */
export function pauseAtRefLock(
  refs: readonly string[],
  onPause: (ref: string) => void,
  fs: typeof nodeFs = nodeFs,
  armed: () => boolean = () => true,
): typeof nodeFs {
  const open = (async (file: nodeFs.PathLike, ...rest: unknown[]) => {
    const handle = await (fs.promises.open as (...a: unknown[]) => Promise<nodeFs.promises.FileHandle>)(file, ...rest);
    const ref = refs.find((r) => path.resolve(String(file)).endsWith(`${path.sep}${r}.lock`));
    if (ref === undefined || !armed()) return handle;
    const write = async (...args: unknown[]) => {
      await (handle.write as (...a: unknown[]) => Promise<unknown>)(...args);
      onPause(ref);
      return new Promise<never>(() => undefined);
    };
    return new Proxy(handle, {
      get: (target, prop) => {
        if (prop === 'write') return write;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }) as typeof nodeFs.promises.open;
  return { ...fs, promises: { ...fs.promises, open } } as typeof nodeFs;
}
