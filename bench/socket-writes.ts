// Counts writes to TCP sockets in this process, as the stream hands them to the operating system
// (`_write` for one buffer, `_writev` for a corked batch: one system call each). The only sockets a
// benchmark process opens lead to Postgres, so the count approximates client → server round trips.
import net from "node:net";

let writes = 0;
let installed = false;

type StreamWrite = (...args: unknown[]) => void;

export function installSocketWriteCounter(): void {
  if (installed) return;
  installed = true;
  const prototype = net.Socket.prototype as unknown as Record<"_write" | "_writev", StreamWrite>;
  for (const method of ["_write", "_writev"] as const) {
    const original = prototype[method];
    prototype[method] = function countedWrite(this: net.Socket, ...args: unknown[]) {
      writes += 1;
      return original.apply(this, args);
    };
  }
}

export function socketWrites(): number {
  return writes;
}
