// Entry point and composition root.
export { main, buildProgram } from './main.js';
export type { CliIO, CliContext } from './context.js';
