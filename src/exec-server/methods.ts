// The exec-server's methods and notifications: parameter and result schemas, names, and defaults.
import { z } from 'zod';

export const ExecMethod = {
  start: 'process/start',
  write: 'process/write',
  closeStdin: 'process/closeStdin',
  kill: 'process/kill',
} as const;

export const ExecNotification = {
  output: 'process/output',
  exited: 'process/exited',
} as const;

// NUL cannot cross execve; `=` in a name would change the meaning of the assignment.
const ArgSchema = z.string().refine((s) => !s.includes('\0'), 'must not contain NUL characters');
const EnvNameSchema = z
  .string()
  .min(1)
  .refine((s) => !s.includes('=') && !s.includes('\0'), 'must not contain "=" or NUL characters');

export const ProcessIdSchema = z.string().min(1).max(128);

export const StartParamsSchema = z
  .object({
    /** Chosen by the client, unique per connection, so output can never arrive for an id it does not know yet. */
    processId: ProcessIdSchema,
    argv: z.array(ArgSchema).min(1).max(4096),
    cwd: ArgSchema.min(1),
    /** Literal variables, applied last. */
    env: z.record(EnvNameSchema, ArgSchema).default({}),
    /** Names taken from the executor's own environment (when set there). */
    inheritEnv: z.array(EnvNameSchema).max(1024).default([]),
  })
  .strict();
export type StartParams = z.input<typeof StartParamsSchema>;

export const StartResultSchema = z.object({ processId: ProcessIdSchema, pid: z.number().int() });
export type StartResult = z.infer<typeof StartResultSchema>;

export const WriteParamsSchema = z.object({ processId: ProcessIdSchema, data: z.base64() }).strict();
export const ProcessRefSchema = z.object({ processId: ProcessIdSchema }).strict();

export const OutputStreamSchema = z.enum(['stdout', 'stderr']);
export type OutputStream = z.infer<typeof OutputStreamSchema>;

/** One chunk of output; `seq` counts every notification of a process (output and exit) from 0. */
export const OutputParamsSchema = z.object({
  processId: ProcessIdSchema,
  stream: OutputStreamSchema,
  seq: z.number().int().nonnegative(),
  data: z.base64(),
});
export type OutputParams = z.infer<typeof OutputParamsSchema>;

/** The last notification of a process; every output notification has a smaller `seq`. */
export const ExitedParamsSchema = z.object({
  processId: ProcessIdSchema,
  seq: z.number().int().nonnegative(),
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
});
export type ExitedParams = z.infer<typeof ExitedParamsSchema>;

export interface ExecLimits {
  /** Processes alive at once on one connection. */
  maxProcessesPerConnection: number;
  /** Largest frame answered with a JSON-RPC error; frames beyond twice this close the connection (1009). */
  maxMessageBytes: number;
  /** Output queued for one connection before its processes' stdout/stderr are paused (backpressure). */
  maxBufferedOutputBytes: number;
  /** Stdin bytes queued for one process; a write beyond it fails with `limitExceeded`. */
  maxStdinBufferBytes: number;
  /** Open connections; more are refused with HTTP 503. */
  maxConnections: number;
}

export const DEFAULT_EXEC_LIMITS: Readonly<ExecLimits> = Object.freeze({
  maxProcessesPerConnection: 16,
  maxMessageBytes: 8 * 1024 * 1024,
  maxBufferedOutputBytes: 8 * 1024 * 1024,
  maxStdinBufferBytes: 8 * 1024 * 1024,
  maxConnections: 64,
});

/** The client splits stdin writes into frames of at most this many raw bytes (about 88 KB as base64). */
export const WRITE_CHUNK_BYTES = 64 * 1024;
/** Unacknowledged stdin bytes a client keeps in flight per process; well under maxStdinBufferBytes. */
export const WRITE_WINDOW_BYTES = 1024 * 1024;
/** The smallest --max-message-bytes that still fits a full write chunk. */
export const MIN_MESSAGE_BYTES = 128 * 1024;
/** Both ends ping this often and drop a connection that missed a whole interval. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
