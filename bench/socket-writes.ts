// Counts writes to TCP sockets in this process. The only sockets a benchmark process opens lead to
// Postgres, and a database client writes once per request it sends (then waits for the answer), so
// the count is a direct measure of client → server round trips.
import net from "node:net";

let writes = 0;
let installed = false;

export function installSocketWriteCounter(): void {
  if (installed) return;
  installed = true;
  const original = net.Socket.prototype.write;
  net.Socket.prototype.write = function countedWrite(this: net.Socket, ...args: Parameters<typeof original>) {
    writes += 1;
    return original.apply(this, args);
  } as typeof original;
}

export function socketWrites(): number {
  return writes;
}
