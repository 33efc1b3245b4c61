// Resource URIs in one spelling: the rules about a resource hold however a caller writes it.
import { describe, expect, it } from 'vitest';
import { canonicalUri, namedThroughTemplates } from './resource-uri.js';

describe('canonicalUri', () => {
  it.each([
    ['DEMO://resource/static/document/architecture.md', 'demo://resource/static/document/architecture.md'],
    ['demo://RESOURCE/static/./document/x/../architecture.md', 'demo://resource/static/document/architecture.md'],
    ['demo://resource/static/document/%61rchitecture.md', 'demo://resource/static/document/architecture.md'],
    ['demo://resource/a%2fb', 'demo://resource/a%2Fb'],
    ['file:///Users/Me/./Doc.md', 'file:///Users/Me/Doc.md'],
    ['https://User@Example.COM:8443/A/../b?q=%7e#F', 'https://User@example.com:8443/b?q=~#F'],
    ['urn:ISBN:0451450523', 'urn:ISBN:0451450523'],
    ['not a uri', 'not a uri'],
  ])('%s -> %s', (input, expected) => expect(canonicalUri(input)).toBe(expected));

  it('keeps a path that has no dot segments as it is', () => {
    expect(canonicalUri('demo://r/a.b/c.d')).toBe('demo://r/a.b/c.d');
    expect(canonicalUri('demo://r/../../x')).toBe('demo://r/x');
  });
});

describe('namedThroughTemplates', () => {
  const templates = ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}'];
  it('names the resource a template variable names in its plain form', async () => {
    expect(await namedThroughTemplates('demo://resource/dynamic/text/01', templates)).toEqual(['demo://resource/dynamic/text/1']);
    expect(await namedThroughTemplates('demo://resource/dynamic/text/%31', templates)).toEqual(['demo://resource/dynamic/text/1']);
  });
  it('names nothing more for a plain spelling or a URI no template matches', async () => {
    expect(await namedThroughTemplates('demo://resource/dynamic/text/1', templates)).toEqual([]);
    expect(await namedThroughTemplates('demo://resource/static/x', templates)).toEqual([]);
  });
});
