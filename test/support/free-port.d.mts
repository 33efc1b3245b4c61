// Types of free-port.mjs.
/** A port on 127.0.0.1 that was free a moment ago, from below the system's ephemeral range (20000-31999). */
export declare function freePort(): Promise<number>;
