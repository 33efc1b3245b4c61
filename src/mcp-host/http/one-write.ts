// Lets a POST's SSE answer leave in one socket write: the response head and the priming event wait in
// the corked socket for the first message (or `holdMs`), and the message and the stream's end go with
// them. Four writes (head, priming event, message, end) became one TCP segment per quick call (issue 14).
import type http from 'node:http';

/** How long the head and priming event wait for a first message before they are sent on their own. */
export const PRIMING_HOLD_MS = 20;

// A priming event has an empty data line (`id: …\n[retry: …\n]data: \n\n`); a message's data never is.
const PRIMING_TAIL = Buffer.from('data: \n\n');

function isPriming(chunk: unknown): boolean {
  if (!(chunk instanceof Uint8Array) && typeof chunk !== 'string') return false;
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  if (bytes.byteLength < PRIMING_TAIL.byteLength) return false;
  for (let i = 1; i <= PRIMING_TAIL.byteLength; i++) if (bytes[bytes.byteLength - i] !== PRIMING_TAIL[PRIMING_TAIL.byteLength - i]) return false;
  return true;
}

/**
 * Corks `res`'s socket until the response's first write that is not a priming event (released at the
 * end of that tick, so an end in the same tick joins it), its end, its close, or `holdMs` after the
 * start. The priming event still precedes every message; a stream that stays quiet gets its head and
 * priming event `holdMs` late.
 */
export function sendTogether(res: http.ServerResponse, holdMs = PRIMING_HOLD_MS): void {
  const socket = res.socket;
  // Corked already: someone else owns the batching on this socket.
  if (!socket || socket.writableCorked > 0 || socket.destroyed) return;
  socket.cork();
  let held = true;
  // From the start: a head with no event behind it (no event store) must not wait for the answer either.
  const timer = setTimeout(() => release(), holdMs);
  const write = res.write;
  const end = res.end;
  const restore = () => {
    held = false;
    clearTimeout(timer);
    res.write = write;
    res.end = end;
  };
  const release = () => {
    if (!held) return;
    restore();
    socket.uncork();
  };
  res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    const ok = (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    if (held && !isPriming(chunk)) process.nextTick(release);
    return ok;
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    // end() uncorks the socket fully itself; after it, an uncork here could undo the next response's cork.
    restore();
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.end;
  res.once('close', release);
}
