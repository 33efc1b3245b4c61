// `switchboard mcp import <file> [--dry-run]`: add the servers of a Claude/Cursor/VS Code MCP JSON file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import {
  parseMcpJson,
  readConfigDocument,
  updateConfigFile,
  type ConfigDocument,
  type ImportedServer,
  type ServerSpec,
} from '../config/index.js';
import type { CliContext } from './context.js';
import { EXIT_FAILED, UsageError } from './exit-codes.js';
import { configFileOf } from './mcp-command-group.js';
import { formatTable } from './server-list-view.js';

function describeSpec(spec: ServerSpec): string {
  if (spec.transport === 'stdio') return [spec.command, ...(spec.args ?? [])].join(' ');
  return spec.url;
}

function secrets(spec: ServerSpec): string {
  const keys =
    spec.transport === 'stdio'
      ? [...Object.keys(spec.env ?? {}), ...(spec.env_vars ?? [])]
      : [...Object.keys(spec.http_headers ?? {}), ...Object.keys(spec.env_http_headers ?? {})];
  return keys.length === 0 ? '-' : keys.map((k) => `${k}=*****`).join(', ');
}

/** Split the file's servers into those to add and those whose name is already configured. */
function partition(doc: ConfigDocument, servers: ImportedServer[]): { add: ImportedServer[]; clash: ImportedServer[] } {
  const add: ImportedServer[] = [];
  const clash: ImportedServer[] = [];
  for (const s of servers) (doc.hasServer(s.name) ? clash : add).push(s);
  return { add, clash };
}

export function registerImportCommand(mcp: Command, context: () => CliContext, result: { exitCode?: number }): void {
  mcp
    .command('import')
    .description('Add the MCP servers of a Claude Desktop, Claude Code (.mcp.json), Cursor or VS Code (mcp.json) file.')
    .argument('<file>', 'the JSON file ("mcpServers" or VS Code\'s "servers" object)')
    .option('--dry-run', 'show what would be added without writing config.toml')
    .addHelpText(
      'after',
      [
        '',
        'Servers whose name is already configured are reported and left as they are. Exit code 1 when',
        'any server was not imported (name clash or an entry that cannot be converted), 2 for a file',
        'that is not valid JSON or has no servers.',
        '',
        'Examples:',
        '  switchboard mcp import .mcp.json --dry-run',
        '  switchboard mcp import ~/.cursor/mcp.json',
        '  switchboard mcp import ~/Library/Application\\ Support/Claude/claude_desktop_config.json',
        '',
      ].join('\n'),
    )
    .action(async (file: string, opts: { dryRun?: boolean }) => {
      const ctx = context();
      const source = path.resolve(ctx.cwd, file);
      let text: string;
      try {
        text = await readFile(source, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${source}: ${(err as Error).message}`);
      }
      const plan = parseMcpJson(text, source);
      const target = configFileOf(ctx);

      let added: ImportedServer[];
      let clash: ImportedServer[];
      if (opts.dryRun) {
        ({ add: added, clash } = partition(await readConfigDocument(target), plan.servers));
      } else {
        const update = await updateConfigFile(target, (doc) => {
          const parts = partition(doc, plan.servers);
          for (const s of parts.add) doc.setServer(s.name, s.table);
          return parts;
        });
        ({ add: added, clash } = update.result);
      }
      // Reported only once config.toml was read: a broken config gives one error and nothing else.
      for (const s of plan.servers) for (const w of s.warnings) ctx.stderr.write(`warning: '${s.sourceName}': ${w}\n`);
      for (const s of plan.skipped) ctx.stderr.write(`skipped '${s.name}': ${s.reason}\n`);
      for (const s of clash) ctx.stderr.write(`skipped '${s.sourceName}': an MCP server named '${s.name}' already exists in ${target} (not overwritten)\n`);

      if (opts.dryRun) {
        if (added.length === 0) ctx.stdout.write(`Dry run: no new MCP servers to add to ${target}.\n`);
        else {
          ctx.stdout.write(`Dry run: would add ${added.length} MCP server${added.length === 1 ? '' : 's'} to ${target}:\n`);
          const rows = added.map((s) => [s.name, s.spec.transport, describeSpec(s.spec), secrets(s.spec)]);
          const table = formatTable(['Name', 'Transport', 'Command / Url', 'Env / Headers'], rows);
          ctx.stdout.write(table.replace(/^(?=.)/gm, '  '));
        }
      } else if (added.length === 0) {
        ctx.stdout.write(`No new MCP servers imported from ${source}.\n`);
      } else {
        for (const s of added) ctx.stdout.write(`Added global MCP server '${s.name}'.\n`);
      }
      if (clash.length > 0 || plan.skipped.length > 0) result.exitCode = EXIT_FAILED;
    });
}
