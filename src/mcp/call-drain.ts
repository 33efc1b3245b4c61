// The tool calls running on one server connection, so that a connection a reload replaces is closed
// only once they have finished (or a drain timeout has passed, after which they fail with why).
import { McpClientError } from '../util/index.js';

export class CallDrain {
  private running = 0;
  private idle: (() => void) | undefined;
  /** Set when the drain timed out: what the calls still running fail with. */
  private cut: McpClientError | undefined;

  get inFlight(): number {
    return this.running;
  }

  /** `work`'s outcome; counted while it runs. After a timed-out drain its failure is the drain's error. */
  async track<T>(work: Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await work;
    } catch (err) {
      if (this.cut) throw new McpClientError('cancelled', this.cut.message, { cause: err });
      throw err;
    } finally {
      this.running -= 1;
      if (this.running === 0) this.idle?.();
    }
  }

  /**
   * Resolves true once no call runs, or false after `timeoutMs`; from then on the calls still
   * running fail with `cancelled: <why>` (the caller closes the connection under them).
   */
  async drain(timeoutMs: number, why: string): Promise<boolean> {
    if (this.running === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await new Promise<boolean>((resolve) => {
      const idle = () => resolve(true);
      this.idle = idle;
      timer = setTimeout(() => resolve(false), timeoutMs);
    }).finally(() => {
      clearTimeout(timer);
      this.idle = undefined;
    });
    if (!drained) this.cut = new McpClientError('cancelled', why);
    return drained;
  }
}
