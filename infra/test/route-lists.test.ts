/**
 * The route lists of the docs are generated from the committed descriptions (`scripts/docs/route-lists.ts`): every block
 * between `<!-- routes:<service>[:<filter>] -->` and `<!-- /routes -->` must say what the descriptions say now.
 */
import { documentsWithBlocks, REWRITE_COMMAND, rewriteBlocks, routeTable, staleDocuments, type Description } from '../../scripts/docs/route-lists';

const description: Description = {
  security: [{ apiKey: [] }],
  paths: {
    '/api/v1/rides': {
      get: { summary: 'List | rides', tags: ['Rides'], security: [{ apiKey: ['rides:read'] }, { apiKeyHeader: ['rides:read'] }], 'x-required-scope': 'rides:read' },
      post: { summary: 'Request a ride', tags: ['Rides'] },
    },
    '/driver/v1/sessions': { post: { summary: 'Sign in', tags: ['Driver sessions'], security: [] } },
    '/admin/v1/drivers': { get: { summary: 'Drivers', tags: ['Admin drivers'], security: [{ adminJwt: [] }, {}] } },
  },
};

describe('routeTable', () => {
  it('has one row per operation in the description order, with who may call it', () => {
    expect(routeTable(description)).toEqual([
      '| operation | auth / scope | summary |',
      '|---|---|---|',
      '| `GET /api/v1/rides` | key, `rides:read` | List \\| rides |',
      '| `POST /api/v1/rides` | key | Request a ride |',
      '| `POST /driver/v1/sessions` | none (public) | Sign in |',
      '| `GET /admin/v1/drivers` | admin JWT or none | Drivers |',
    ]);
  });

  it('filters by path prefix or tag', () => {
    expect(routeTable(description, '/driver/v1,Admin drivers').slice(2)).toEqual([
      '| `POST /driver/v1/sessions` | none (public) | Sign in |',
      '| `GET /admin/v1/drivers` | admin JWT or none | Drivers |',
    ]);
    expect(() => routeTable(description, '/nothing')).toThrow(/no operation matches/);
  });
});

describe('rewriteBlocks', () => {
  it('replaces what lies between the markers and keeps the rest', () => {
    const doc = ['# Doc', '<!-- routes:x:/driver/v1 -->', '| old |', '<!-- /routes -->', 'after'].join('\n');
    expect(rewriteBlocks(doc, () => description)).toBe(
      ['# Doc', '<!-- routes:x:/driver/v1 -->', '', '| operation | auth / scope | summary |', '|---|---|---|', '| `POST /driver/v1/sessions` | none (public) | Sign in |', '', '<!-- /routes -->', 'after'].join('\n'),
    );
  });

  it('refuses a block without its closing marker', () => {
    expect(() => rewriteBlocks('<!-- routes:x -->\n| old |', () => description)).toThrow(/has no <!-- \/routes -->/);
  });
});

describe('the route lists of the docs', () => {
  it('exist (the services’ READMEs and docs/api.md carry generated blocks)', () => {
    expect(documentsWithBlocks()).toEqual(expect.arrayContaining(['docs/api.md', 'services/certificate/README.md', 'services/mobility/README.md']));
  });

  it(`are up to date with the committed descriptions (else run \`${REWRITE_COMMAND}\`)`, () => {
    const stale = staleDocuments().map(({ file }) => `${file}: stale route list, run \`${REWRITE_COMMAND}\``);
    expect(stale).toEqual([]);
  });
});
