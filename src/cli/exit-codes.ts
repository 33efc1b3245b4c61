// Exit codes shared by every command: 0 success, 1 operation failed, 2 usage or config error.
import { SwitchboardError } from '../util/index.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A failure the user caused with the command line (bad flag, bad JSON argument): exit 2. */
export class UsageError extends SwitchboardError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'UsageError';
  }
}

/** An operation that ran and failed (server not found, call failed): exit 1, message already final. */
export class CommandFailed extends SwitchboardError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('command_failed', message, options);
    this.name = 'CommandFailed';
  }
}
