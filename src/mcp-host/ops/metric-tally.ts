// The counters, histograms and gauge that /metrics exposes from an endpoint's own spans, kept in plain
// maps from the first request on and written in Prometheus text format as prom-client writes it, so
// that prom-client (and the OpenTelemetry API it requires: 83 modules) loads only when someone scrapes.

type Labels = Readonly<Record<string, unknown>>;

interface Series {
  values: string[];
  /** A counter's or gauge's value, a histogram's sum. */
  value: number;
  count: number;
  /** Observations per bucket, not cumulative (a histogram's). */
  buckets: number[];
}

const escape = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (s: string): string => escape(s).replace(/"/g, '\\"');
const number = (v: number): string => (Number.isNaN(v) ? 'Nan' : Number.isFinite(v) ? `${v}` : v < 0 ? '-Inf' : '+Inf');

/** One metric family: its series keyed by their label values in `labelNames` order. */
export class Tally {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly type: 'counter' | 'gauge' | 'histogram',
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[] = [],
    private readonly bounds: readonly number[] = [],
  ) {
    if (labelNames.length === 0) this.at({}); // a family without labels shows its zero, as prom-client's do
  }

  /** Adds to a counter or gauge; a counter ignores negative and non-finite amounts. */
  inc(labels: Labels = {}, by = 1): void {
    if (!Number.isFinite(by) || (by < 0 && this.type === 'counter')) return;
    this.at(labels).value += by;
  }

  /** A histogram's observation; non-finite values are ignored (prom-client would throw). */
  observe(labels: Labels, value: number): void {
    if (!Number.isFinite(value)) return;
    const s = this.at(labels);
    s.value += value;
    s.count += 1;
    const i = this.bounds.findIndex((b) => value <= b);
    if (i >= 0) s.buckets[i]! += 1;
  }

  /** The family as Prometheus text, without a trailing newline. */
  render(): string {
    const lines = [`# HELP ${escape(this.name)} ${escape(this.help)}`, `# TYPE ${escape(this.name)} ${this.type}`];
    for (const s of this.series.values()) {
      const pairs = this.labelNames.map((n, i) => `${n}="${escapeLabel(s.values[i]!)}"`);
      const braced = (extra?: string) => {
        const all = extra === undefined ? pairs : [extra, ...pairs];
        return all.length === 0 ? '' : `{${all.join(',')}}`;
      };
      if (this.type !== 'histogram') {
        lines.push(`${this.name}${braced()} ${number(s.value)}`);
        continue;
      }
      let below = 0;
      this.bounds.forEach((b, i) => {
        below += s.buckets[i]!;
        lines.push(`${this.name}_bucket${braced(`le="${b}"`)} ${below}`);
      });
      lines.push(`${this.name}_bucket${braced('le="+Inf"')} ${s.count}`, `${this.name}_sum${braced()} ${number(s.value)}`, `${this.name}_count${braced()} ${s.count}`);
    }
    return lines.join('\n');
  }

  private at(labels: Labels): Series {
    const values = this.labelNames.map((n) => String(labels[n] ?? ''));
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      s = { values, value: 0, count: 0, buckets: this.bounds.map(() => 0) };
      this.series.set(key, s);
    }
    return s;
  }
}
