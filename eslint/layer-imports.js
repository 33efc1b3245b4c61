// Enforces the layer table of ARCHITECTURE.md: imports point down only, and another layer is
// reached through its index.ts (its public face), never through a file deep inside it, save for the
// second faces in SECOND_FACES (each for a reason, some only for some layers).
import path from 'node:path';

export const LAYER_TABLE = {
  // The library's entry points (package.json `exports`): a top layer beside cli; neither imports the other.
  api: ['gateway', 'mcp-host', 'core', 'mcp', 'mcp-client', 'config', 'protocol', 'util'],
  cli: ['gateway', 'agent-server', 'mcp-host', 'core', 'mcp', 'mcp-client', 'exec-server', 'store', 'config', 'protocol', 'util'],
  gateway: ['mcp-host', 'mcp', 'mcp-client', 'config', 'protocol', 'util'],
  'agent-server': ['mcp-host', 'core', 'store', 'config', 'protocol', 'util'],
  'mcp-host': ['protocol', 'util'],
  core: ['mcp', 'store', 'config', 'protocol', 'util'],
  mcp: ['mcp-client', 'config', 'protocol', 'util'],
  'mcp-client': ['exec-server', 'store', 'config', 'protocol', 'util'],
  'exec-server': ['util'],
  // Shared state behind interfaces (threads, sessions, credentials): files under $SWITCHBOARD_HOME or PostgreSQL.
  store: ['util'],
  config: ['protocol', 'util'],
  protocol: [],
  util: [],
};

/**
 * Faces of a layer besides its index.ts, and who may use them (`*`: every layer above it).
 * - protocol/values: the dependency-free value lists for start-up hot paths.
 * - util/telemetry: kept out of util/index.ts so CLI start-up never loads it.
 * - mcp-client/oauth: kept out of mcp-client/index.ts so a stdio connection never loads it.
 * - mcp-client/prelaunch: free of the MCP SDK, so a server can start before it loads.
 * - mcp-host/access, http, ops: the [server_auth] side, the HTTP listener's settings and operations,
 *   which the composition root wires; products see only mcp-host's index (what they serve through).
 */
export const SECOND_FACES = {
  protocol: { 'values.js': '*' },
  util: { 'telemetry/index.js': '*' },
  'mcp-client': { 'oauth/index.js': '*', 'prelaunch/index.js': '*' },
  'mcp-host': { 'access/index.js': ['cli', 'api'], 'http/index.js': ['cli', 'api'], 'ops/index.js': ['cli', 'api'] },
};

/**
 * What hands out a raw upstream client. Only the connection manager (`mcp`) holds one, so every road
 * to an upstream passes its policy (tool filters, caller rights, timeouts); `api` re-exports them for
 * library users who build their own manager.
 */
const RAW_CLIENT = { names: ['McpClient', 'createMcpClient', 'createDefaultClientFactory'], holders: ['mcp-client', 'mcp', 'api'] };

// Packages a layer may not import at all (protocol is pure types and zod schemas).
const PACKAGE_LIMITS = {
  protocol: (spec) => spec === 'zod' || spec.startsWith('zod/'),
};

function layerOf(srcRoot, absPath) {
  const rel = path.relative(srcRoot, absPath);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const first = rel.split(path.sep)[0];
  return Object.hasOwn(LAYER_TABLE, first) ? first : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layerImports = {
  meta: {
    type: 'problem',
    docs: { description: 'imports point down the layer table and enter other layers through index.ts' },
    schema: [],
    messages: {
      upward: "layer '{{from}}' may not import layer '{{to}}' (allowed: {{allowed}})",
      deep: "import '{{spec}}' reaches inside layer '{{to}}'; import its index.js instead",
      pkg: "layer '{{from}}' may not import package '{{spec}}'",
      rawClient: "layer '{{from}}' may not hold a raw upstream client ('{{name}}'): ask McpConnectionManager, the only road to an upstream, which applies the server's policy",
    },
  },
  create(context) {
    const file = context.filename;
    const srcRoot = path.join(context.cwd, 'src');
    const from = layerOf(srcRoot, file);
    if (!from) return {};
    function checkNames(node) {
      if (RAW_CLIENT.holders.includes(from)) return;
      for (const s of node.specifiers ?? []) {
        const name = s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : s.type === 'ExportSpecifier' ? (s.local.name ?? s.local.value) : undefined;
        if (name && RAW_CLIENT.names.includes(name)) context.report({ node: s, messageId: 'rawClient', data: { from, name } });
      }
    }
    function check(node, spec) {
      if (typeof spec !== 'string') return;
      if (!spec.startsWith('.')) {
        const limit = PACKAGE_LIMITS[from];
        if (limit && !spec.startsWith('node:') && !limit(spec)) {
          context.report({ node, messageId: 'pkg', data: { from, spec } });
        }
        return;
      }
      const target = path.resolve(path.dirname(file), spec);
      const to = layerOf(srcRoot, target);
      if (!to || to === from) return;
      if (!LAYER_TABLE[from].includes(to)) {
        context.report({ node, messageId: 'upward', data: { from, to, allowed: LAYER_TABLE[from].join(', ') || 'none' } });
        return;
      }
      const inner = path.relative(path.join(srcRoot, to), target).split(path.sep).join('/');
      const users = SECOND_FACES[to]?.[inner];
      // A unit test may build what its code is given (an AccessPolicy for a product's test, say).
      const testing = file.endsWith('.test.ts');
      const publicEntry = ['index.js', 'index.ts', 'index', ''].includes(inner) || users === '*' || (users !== undefined && testing) || (Array.isArray(users) && users.includes(from));
      if (!publicEntry) {
        context.report({ node, messageId: 'deep', data: { spec, to } });
      }
    }
    return {
      ImportDeclaration(node) {
        check(node, node.source.value);
        checkNames(node);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value);
        if (node.source) checkNames(node);
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value);
      },
    };
  },
};

export default { rules: { 'layer-imports': layerImports } };
