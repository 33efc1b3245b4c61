// Inside a test file: whether a system component is missing in this run (vitest.config.ts probes them
// once and provides the answer), for setup code that must not start what its skipped tests would use.
import { inject } from 'vitest';
import type { ComponentId } from './system-components.js';

declare module 'vitest' {
  export interface ProvidedContext {
    missingComponents: Partial<Record<ComponentId, string>>;
  }
  export interface TestTags {
    component: ComponentId;
  }
}

/** True when the tests tagged `id` are skipped in this run. */
export function isMissing(id: ComponentId): boolean {
  return inject('missingComponents')[id] !== undefined;
}
