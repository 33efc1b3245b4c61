// launchers/: where a stdio server's process runs (here, on an exec-server, over SSH) and the byte
// channels that carry its newline-delimited JSON-RPC. The connection code above only sees a Transport.
export type * from './launcher.js';
// The remote launchers are reached through selectLauncher, which loads their modules on first use.
export type { ExecServerEnvironment, ExecutorLauncherOptions } from './executor-launcher.js';
export type { SshLauncherOptions } from './ssh-launcher.js';
export { selectLauncher, UnknownEnvironmentError, LOCAL_ENVIRONMENT_ID, type LauncherSelection } from './select-launcher.js';
export { adoptingLauncher, createLocalLauncher, type LocalLauncherOptions } from './local-launcher.js';
