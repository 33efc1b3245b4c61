// A thread's settings (model, provider, cwd, policies, instructions) and how they are resolved:
// explicit overrides, then what a resumed thread last used, then config.toml, then defaults.
import path from 'node:path';
import type { Config, ModelProviderConfig } from '../../config/index.js';
import type { AskForApproval, SandboxMode, SandboxPolicy, ToolSearchModeValue } from '../../protocol/index.js';
import { SwitchboardError } from '../../util/index.js';
import type { SessionMeta, TurnContext } from '../rollout/rollout-schema.js';

export const DEFAULT_MODEL = 'gpt-5-codex';
export const DEFAULT_OSS_MODEL = 'gpt-oss:20b';
export const DEFAULT_APPROVAL_POLICY: AskForApproval = 'on-request';
export const DEFAULT_SANDBOX_MODE: SandboxMode = 'read-only';

/** A thread's effective settings: config defaults, then the overrides it was started or resumed with. */
export interface ThreadSettings {
  cwd: string;
  model: string;
  provider: ModelProviderConfig;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  /** Replaces the default base instructions. */
  baseInstructions: string | null;
  /** Sent verbatim as a developer message. */
  developerInstructions: string | null;
  /** `tool_search` of config.toml: whether MCP tools are deferred behind the tool_search tool. */
  toolSearch: ToolSearchModeValue;
  /** `model_context_window` of config.toml (tokens), or null to use the model's known window. */
  modelContextWindow: number | null;
  /** MCP servers marked `always_loaded = true`: their tools are never deferred. */
  alwaysLoadedServers: string[];
}

/** Settings for one thread, over the config's defaults (as `switchboard exec -m/-s/-a/-C` sets them). */
export interface ThreadOverrides {
  cwd?: string;
  model?: string;
  modelProvider?: string;
  approvalPolicy?: AskForApproval;
  sandboxMode?: SandboxMode;
  baseInstructions?: string;
  developerInstructions?: string;
}

export function sandboxPolicyFor(mode: SandboxMode, config: Pick<Config, 'sandbox_workspace_write'>): SandboxPolicy {
  switch (mode) {
    case 'read-only':
      return { type: 'read-only' };
    case 'workspace-write': {
      const sww = config.sandbox_workspace_write;
      return {
        type: 'workspace-write',
        writable_roots: [...sww.writable_roots],
        network_access: sww.network_access,
        exclude_tmpdir_env_var: sww.exclude_tmpdir_env_var,
        exclude_slash_tmp: sww.exclude_slash_tmp,
      };
    }
    case 'danger-full-access':
      return { type: 'danger-full-access' };
  }
}

export interface SavedSession {
  meta: SessionMeta;
  lastTurnContext: TurnContext | null;
}

/** Resolve settings. `defaultCwd` is used when neither an override nor a saved session gives one. */
export function resolveThreadSettings(config: Config, overrides: ThreadOverrides, defaultCwd: string, saved?: SavedSession): ThreadSettings {
  const last = saved?.lastTurnContext ?? null;
  const providerId = overrides.modelProvider ?? last?.model_provider ?? saved?.meta.model_provider ?? config.model_provider;
  const provider = config.model_providers[providerId];
  if (!provider) {
    throw new SwitchboardError('provider_not_found', `model provider \`${providerId}\` not found; define [model_providers.${providerId}] in ${config.file}`);
  }
  const providerChanged = overrides.modelProvider !== undefined && overrides.modelProvider !== (last?.model_provider ?? saved?.meta.model_provider);
  const savedModel = providerChanged ? undefined : (last?.model ?? saved?.meta.model);
  const model = overrides.model ?? savedModel ?? config.model ?? (providerId === 'oss' ? DEFAULT_OSS_MODEL : DEFAULT_MODEL);
  const sandboxPolicy =
    overrides.sandboxMode !== undefined
      ? sandboxPolicyFor(overrides.sandboxMode, config)
      : (last?.sandbox_policy ?? saved?.meta.sandbox_policy ?? sandboxPolicyFor(config.sandbox_mode ?? DEFAULT_SANDBOX_MODE, config));
  return {
    cwd: path.resolve(defaultCwd, overrides.cwd ?? last?.cwd ?? saved?.meta.cwd ?? '.'),
    model,
    provider,
    approvalPolicy: overrides.approvalPolicy ?? last?.approval_policy ?? saved?.meta.approval_policy ?? config.approval_policy ?? DEFAULT_APPROVAL_POLICY,
    sandboxPolicy,
    baseInstructions: overrides.baseInstructions ?? saved?.meta.base_instructions ?? config.base_instructions,
    developerInstructions: overrides.developerInstructions ?? saved?.meta.developer_instructions ?? config.developer_instructions,
    toolSearch: config.tool_search,
    modelContextWindow: config.model_context_window,
    alwaysLoadedServers: Object.values(config.mcp_servers)
      .filter((s) => s.enabled && s.always_loaded)
      .map((s) => s.name),
  };
}
