// The last thing a run prints: which tests were skipped and why, grouped by the missing system
// component (with the one command that installs them all), then any other skip with its note. With
// SWITCHBOARD_TEST_NO_SKIP=1 (set by .ci/run) a skipped test fails the run, so nothing stops running unseen.
import path from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { COMPONENTS, INSTALL_COMMAND, NO_SKIP_VAR, type ComponentId } from './system-components.js';

export class SkipSummaryReporter implements Reporter {
  #root = process.cwd();
  #log: (text: string) => void = (text) => console.log(text);

  constructor(
    private readonly missing: Partial<Record<ComponentId, string>>,
    private readonly noSkip = process.env[NO_SKIP_VAR] === '1',
  ) {}

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#log = (text) => vitest.logger.log(text);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byComponent = new Map<ComponentId, Map<string, number>>();
    const other: string[] = [];
    let skipped = 0;
    for (const module of testModules) {
      const file = path.relative(this.#root, module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        // A failed hook marks its tests skipped; that failure is reported already.
        if (result.state !== 'skipped' || inFailedSuite(test)) continue;
        skipped++;
        const components = test.tags.filter((tag): tag is ComponentId => this.missing[tag as ComponentId] !== undefined);
        for (const id of components) {
          const files = byComponent.get(id) ?? new Map<string, number>();
          files.set(file, (files.get(file) ?? 0) + 1);
          byComponent.set(id, files);
        }
        if (components.length === 0) other.push(`  ${file} > ${test.fullName}: ${skipNote(test)}`);
      }
    }
    if (skipped === 0) {
      if (this.noSkip) this.#log(`\n ${NO_SKIP_VAR}=1: no test was skipped.\n`);
      return;
    }
    const lines = [''];
    if (byComponent.size > 0) {
      lines.push(` Skipped: these tests need system components this machine lacks. Install them all with: ${INSTALL_COMMAND}`);
      for (const component of COMPONENTS) {
        const files = byComponent.get(component.id);
        if (!files) continue;
        lines.push(`  ${component.id}: ${component.what}; ${this.missing[component.id]}`);
        for (const [file, count] of files) lines.push(`    ${file} (${count} ${count === 1 ? 'test' : 'tests'})`);
      }
    }
    if (other.length > 0) lines.push(' Skipped for other reasons:', ...other);
    if (this.noSkip) {
      lines.push(` ${NO_SKIP_VAR}=1 (set by .ci/run): ${skipped} skipped ${skipped === 1 ? 'test fails' : 'tests fail'} this run.`);
      process.exitCode = 1;
    }
    this.#log(`${lines.join('\n')}\n`);
  }
}

function skipNote(test: TestCase): string {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  return test.options.mode === 'todo' ? 'marked todo' : 'skipped in its file (skip, skipIf or only elsewhere)';
}

function inFailedSuite(test: TestCase): boolean {
  for (let parent = test.parent; ; parent = parent.parent) {
    if (!parent.ok()) return true;
    if (parent.type === 'module') return false;
  }
}
