// The environment the agent's shell commands get: the parent's, minus anything that looks like a
// secret (Codex's default shell_environment_policy excludes: *KEY*, *SECRET*, *TOKEN*).

const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i;

export function shellEnvironment(parent: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !SECRET_NAME.test(name)) out[name] = value;
  }
  return out;
}
