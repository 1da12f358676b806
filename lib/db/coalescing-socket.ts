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
 * How much a socket holds before `write` reports backpressure (Node's default: 16 KiB). postgres.js
 * stops pipelining a connection's statements when `write` returns false: the rest waits and goes
 * out one statement per answer, each its own write and round trip. A corked burst (a group commit:
 * BEGIN, up to 64 threads' statements with their messages, COMMIT) easily passes 16 KiB; with this
 * it goes out whole, in one system call. A limit on when to wait, not on memory: what is written is
 * buffered either way.
 */
export const SOCKET_WRITE_BUFFER = 4 * 1024 * 1024;

/**
 * postgres.js's `socket` option. The socket is returned while it connects, as postgres.js's own
 * socket would be: a refused or dropped connection then reaches postgres.js as the socket's
 * `error` and `close` events, which drive its reconnects (a rejected factory would leave the pool
 * connection stuck). Writes before the connection is up wait in the socket.
 */
export function connectCoalescingSocket(options: PostgresSocketOptions): net.Socket {
  // Node passes the stream options on (not in @types/node's constructor options).
  const socket = new net.Socket({ writableHighWaterMark: SOCKET_WRITE_BUFFER } as net.SocketConstructorOpts);
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
