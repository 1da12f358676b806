// A socket for postgres.js that turns the writes of one burst of JavaScript into one system call.
// postgres.js writes every statement of 1 KiB or more at once (smaller ones wait for setImmediate),
// so a pipelined commit of several statements cost several writes, each a trip through the kernel's
// network stack that also wakes the server. Corking on the first write and uncorking once the
// current macrotask's ticks and microtasks have run sends the whole burst with one writev.
import net from "node:net";

/** The connection options postgres.js hands to a custom `socket` factory (the parts used here). */
export interface PostgresSocketOptions {
  host: readonly string[];
  port: readonly number[];
  path?: string | false;
}

/**
 * postgres.js's `socket` option. The socket is returned while it connects, as postgres.js's own
 * socket would be: a refused or dropped connection then reaches postgres.js as the socket's
 * `error` and `close` events, which drive its reconnects (a rejected factory would leave the pool
 * connection stuck). Writes before the connection is up wait in the socket.
 */
export function connectCoalescingSocket(options: PostgresSocketOptions): net.Socket {
  const socket = new net.Socket();
  if (options.path) socket.connect(options.path);
  else socket.connect(options.port[0] ?? 5432, options.host[0] ?? "localhost");
  // After connect(): it puts the prototype's `write` back on a socket.
  return coalesceWrites(socket);
}

export function coalesceWrites(socket: net.Socket): net.Socket {
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      // A tick queued from a microtask runs once the microtask queue is drained: the end of this
      // burst of work, before the event loop goes back to I/O.
      process.nextTick(uncork);
    }
    return write(...args);
  }) as typeof socket.write;
  return socket;
}
