// Whether a port is really closed: a process that was stopped, or everything `flotilla up` started after Ctrl-C.
import { connect } from 'node:net';

/** Resolves true once nothing accepts connections on host:port. */
export function refuses(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
