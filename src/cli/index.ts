// Entry point and composition root.
export { main, buildProgram, VERSION } from './main.js';
export type { CliIO, CliContext } from './context.js';
