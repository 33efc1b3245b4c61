// Hidden `switchboard conformance-client <url>`: the client the official conformance suite drives
// (it appends the URL as the last argument and passes MCP_CONFORMANCE_SCENARIO / _CONTEXT).
import type { RegisterCommand } from './commands.js';

export const registerConformanceClientCommand: RegisterCommand = (program, context, result) => {
  program
    .command('conformance-client', { hidden: true })
    .description('Act as a generic MCP client for @modelcontextprotocol/conformance')
    .option('--client-metadata-url <url>', 'Client ID Metadata Document URL to offer as client_id')
    .argument('<url>', 'the MCP server URL')
    .action(async (url: string, opts: { clientMetadataUrl?: string }) => {
      const ctx = context();
      const { parseConformanceContext, runConformanceClient } = await import('./conformance-client.js');
      const scenario = ctx.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
      const log = (line: string) => ctx.stderr.write(`[conformance-client ${scenario}] ${line}\n`);
      result.exitCode = await runConformanceClient({
        url,
        context: parseConformanceContext(ctx.env.MCP_CONFORMANCE_CONTEXT),
        clientMetadataUrl: opts.clientMetadataUrl,
        log,
      });
    });
};
