// A caller's concurrent-call slot, held by the HTTP request that took it until its response closes,
// unless a task-augmented call's task keeps it: then it is held until that task ends, so
// `concurrent_calls` counts the work a caller started, not only the requests it holds open.
import type { AuthInfo } from '@modelcontextprotocol/server';

const SLOT_KEY = 'switchboard/call-slot';

export class CallSlot {
  private kept = false;
  private released = false;

  constructor(private readonly free: () => void) {}

  /** The request's response closed: the slot goes back unless a task kept it. */
  requestEnded(): void {
    if (!this.kept) this.release();
  }

  /** A task keeps the slot: its release, to call when the task ends (once is enough). */
  keep(): () => void {
    this.kept = true;
    return () => this.release();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.free();
  }
}

/** `info` carrying the slot of the request it belongs to. */
export function withCallSlot(info: AuthInfo, slot: CallSlot): AuthInfo {
  return { ...info, extra: { ...info.extra, [SLOT_KEY]: slot } };
}

/** The call slot a request took (HTTP with concurrent_calls), if any. */
export function callSlotOf(info: AuthInfo | undefined): CallSlot | undefined {
  const slot = info?.extra?.[SLOT_KEY];
  return slot instanceof CallSlot ? slot : undefined;
}
