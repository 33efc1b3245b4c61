// One server connection: launchers (local stdio, exec-server, ssh), transports and the client.
export * from './launcher.js';
export { buildRemoteCommand, RemoteSpecError, type RemoteCommand } from './remote-command.js';
export { RemoteStdioTransport, type RemoteProcessChannel, type RemoteStdioTransportOptions } from './remote-stdio-transport.js';
export { createExecutorLauncher, type ExecServerEnvironment, type ExecutorLauncherOptions } from './executor-launcher.js';
export { createSshLauncher, type SshLauncherOptions } from './ssh-launcher.js';
export { buildRemoteScript, buildSshArgv, shellQuote, type SshEnvironment } from './ssh-command.js';
export { selectLauncher, UnknownEnvironmentError, LOCAL_ENVIRONMENT_ID, type LauncherSelection } from './select-launcher.js';
