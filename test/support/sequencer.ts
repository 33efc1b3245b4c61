// The order files start in: vitest's (longest first by the last run's durations, else largest first,
// one project after another), except that the reliability projects go first. Their files are few and
// long, and started last they would leave one worker running them while the others sit idle.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class ReliabilityFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) => spec.project.name.startsWith('reliability');
    return [...sorted.filter(first), ...sorted.filter((spec) => !first(spec))];
  }
}
