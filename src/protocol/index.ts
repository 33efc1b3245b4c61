// Types and zod schemas shared by every layer: Op, Event/EventMsg, MCP startup events, policies.
export * from './policies.js';
export * from './mcp-events.js';
export * from './events.js';
export * from './ops.js';
export * from './values.js';
