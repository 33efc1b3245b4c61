// Types of echo-model.mjs.
import type { EchoModel } from './cluster.mjs';
export declare function startEchoModel(): Promise<EchoModel>;
