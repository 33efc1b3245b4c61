// What the model reads after a command: exit code, wall time and the capped output, in Codex's
// layout ("Exit code: 0\nWall time: 0.2 seconds\nOutput:\n...").
import type { ExecResult } from './run-command.js';
import { truncateForModel } from './truncate-output.js';

/** The output text before capping, with the timeout note Codex puts in front. */
export function outputText(result: ExecResult): string {
  switch (result.termination.kind) {
    case 'timed_out':
      return `command timed out after ${result.termination.timeoutMs} milliseconds\n${result.aggregated}`;
    case 'spawn_failed':
      return `${result.aggregated}failed to start command: ${result.termination.error.message}\n`;
    case 'aborted':
      return `${result.aggregated}command aborted\n`;
    case 'exited':
    case 'signaled':
      return result.aggregated;
  }
}

export interface FormattedExecOutput {
  /** The capped output (exec_command_end.formatted_output). */
  body: string;
  /** The full text for the model, with exit code and wall time. */
  forModel: string;
}

export function formatExecOutput(result: ExecResult): FormattedExecOutput {
  const capped = truncateForModel(outputText(result));
  const wallSeconds = Math.round(result.durationMs / 100) / 10;
  const lines = [`Exit code: ${result.exitCode}`, `Wall time: ${wallSeconds} seconds`];
  if (capped.truncated) lines.push(`Total output lines: ${capped.totalLines}`);
  lines.push('Output:', capped.text);
  return { body: capped.text, forModel: lines.join('\n') };
}
