// The docs stay true to what they describe: the generated figures match their JSON files, the README
// stays short and its quick-start commands exist, relative links resolve, and the layer table of
// docs/architecture.md is the one lint enforces.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGIONS, REPO, renderDocs } from '../../scripts/docs-figures.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

describe('generated figures', () => {
  it.each(REGIONS.map((r) => [r.doc, r.name, r.source] as const))('%s region %s is rendered from %s as it is now', (doc, _name, source) => {
    expect(existsSync(path.join(REPO, source)), `${source} must be committed`).toBe(true);
    const expected = renderDocs().get(path.join(REPO, doc));
    expect(read(doc) === expected, `${doc} is out of date with ${source}: run npm run docs:figures`).toBe(true);
  });
});

describe('README', () => {
  const readme = read('README.md');

  it('has at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('quick start is two commands, each made of npm scripts that exist', () => {
    const section = readme.slice(readme.indexOf('## Quick start'));
    const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const commands = block.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
    expect(commands).toHaveLength(2);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const command of commands) {
      for (const step of command.split('&&').map((s) => s.trim())) {
        // `npm ci` is npm's own; `npm test` runs the `test` script, `npm run X` the `X` script.
        const m = /^npm (?:run (\S+)|(test)|ci)$/.exec(step);
        expect(m, `quick-start step '${step}' is not npm ci / npm test / npm run <script>`).not.toBeNull();
        const script = m?.[1] ?? m?.[2];
        if (script) expect(scripts, `package.json has no '${script}' script`).toHaveProperty(script);
      }
    }
  });
});

/** README.md, CONTRIBUTING.md and every page under docs/. */
function markdownFiles(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

describe('links', () => {
  it.each(markdownFiles())('relative links in %s resolve', (file) => {
    const text = read(file).replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z]+:/.test(target)) continue;
      const [rel, anchor] = target.split('#') as [string, string | undefined];
      const dest = rel ? path.join(path.dirname(file), rel) : file;
      if (!existsSync(path.join(REPO, dest))) {
        broken.push(`${target} (no ${dest})`);
        continue;
      }
      if (anchor && dest.endsWith('.md')) {
        const headings = [...read(dest).matchAll(/^#+ (.+)$/gm)].map((h) => anchorOf(h[1] ?? ''));
        if (!headings.includes(anchor)) broken.push(`${target} (no heading #${anchor} in ${dest})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('layer table matches LAYER_TABLE of eslint/layer-imports.js', async () => {
    const lint = pathToFileURL(path.join(REPO, 'eslint', 'layer-imports.js')).href;
    const { LAYER_TABLE } = (await import(lint)) as { LAYER_TABLE: Record<string, string[]> };
    const rows = read('docs/architecture.md')
      .split('\n')
      .filter((l) => /^\| `[a-z-]+` \|/.test(l))
      .map((l) => l.split('|').map((c) => c.trim()));
    // Columns: layer | owns | may import | why. Only the layer table has "may import" as its third column.
    const documented = Object.fromEntries(
      rows
        .filter((cells) => cells[3] === 'nothing' || /^`[a-z-]+`(, `[a-z-]+`)*$/.test(cells[3] ?? ''))
        .map((cells) => [cells[1]!.replace(/`/g, ''), cells[3] === 'nothing' ? [] : cells[3]!.replace(/`/g, '').split(', ').sort()]),
    );
    const enforced = Object.fromEntries(Object.entries(LAYER_TABLE).map(([layer, allowed]) => [layer, [...allowed].sort()]));
    expect(documented).toEqual(enforced);
  });
});
