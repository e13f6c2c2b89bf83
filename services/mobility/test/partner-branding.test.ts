import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, newAdmin, type AdminIdentity } from './factories/auth';
import { dataUrl, logoPng } from './factories/images';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const branding = (who: AdminIdentity) => ({
  get: () => request(ctx.app).get('/admin/v1/partner/branding').set('Authorization', `Bearer ${adminToken(ctx, who)}`),
  patch: (body: unknown) => request(ctx.app).patch('/admin/v1/partner/branding').set('Authorization', `Bearer ${adminToken(ctx, who)}`).send(body as object),
});

describe('PATCH /admin/v1/partner/branding', () => {
  it('sets the name, colour and logo of the token\'s organization only, stores the logo as bytes, and clears a field with null', async () => {
    const owner = newAdmin();
    expect((await branding(owner).get().expect(200)).body).toEqual({ display_name: null, brand_color: null, logo: null, updated_at: null });

    const logo = logoPng();
    const set = await branding(owner).patch({ display_name: '  Mama Put Kitchen ', brand_color: '#0B6E4F', logo: dataUrl(logo) }).expect(200);
    expect(set.body).toMatchObject({
      display_name: 'Mama Put Kitchen',
      brand_color: '#0b6e4f',
      logo: { content_type: 'image/png', bytes: logo.length, sha256: createHash('sha256').update(logo).digest('hex') },
    });
    const row = await ctx.db('partner_branding').where({ partner_id: owner.org }).first();
    expect(Buffer.compare(row.logo, logo)).toBe(0);
    expect(row.logo_content_type).toBe('image/png');

    // Another organization sees its own (empty) branding; a member reads its own but may not change it.
    expect((await branding(newAdmin()).get().expect(200)).body.display_name).toBeNull();
    const member = { ...owner, sub: `${owner.sub}_m`, role: 'member' as const };
    expect((await branding(member).get().expect(200)).body.display_name).toBe('Mama Put Kitchen');
    expect((await branding(member).patch({ display_name: 'Hijack' }).expect(403)).body.code).toBe('insufficient_role');

    // Only the fields given change; null clears one.
    const cleared = await branding(owner).patch({ logo: null }).expect(200);
    expect(cleared.body).toMatchObject({ display_name: 'Mama Put Kitchen', brand_color: '#0b6e4f', logo: null });
    expect((await ctx.db('partner_branding').where({ partner_id: owner.org }).first()).logo).toBeNull();
  });

  it.each([
    ['a colour that is not #rrggbb', { brand_color: 'green' }, 'brand_color'],
    ['a colour too pale for the route line on white', { brand_color: '#ffee99' }, 'brand_color'],
    ['an empty name', { display_name: '   ' }, 'display_name'],
    ['a logo URL elsewhere (the page would load a third party)', { logo_url: 'https://cdn.example/logo.png' }, ''],
    ['an SVG logo (it can carry script)', { logo: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` }, 'logo'],
    ['a logo whose bytes are not the type it claims', { logo: dataUrl(Buffer.from('GIF89a not a png at all')) }, 'logo'],
    ['a logo over 64 KiB', { logo: dataUrl(Buffer.concat([logoPng().subarray(0, 8), randomBytes(65 * 1024)])) }, 'logo'],
  ])('refuses %s with a 422 JSON error and changes nothing', async (_case, body, path) => {
    const owner = newAdmin();
    await branding(owner).patch({ display_name: 'Kept' }).expect(200);
    const res = await branding(owner).patch(body);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    if (path) expect(JSON.stringify(res.body)).toContain(path);
    expect((await branding(owner).get().expect(200)).body).toMatchObject({ display_name: 'Kept', brand_color: null, logo: null });
  });

  it('refuses a body over 100 kB (413), a body that is not JSON (415) and a request without an admin token (401), as JSON', async () => {
    const owner = newAdmin();
    const huge = await branding(owner).patch({ logo: dataUrl(Buffer.concat([logoPng().subarray(0, 8), randomBytes(120 * 1024)])) }).expect(413);
    expect(huge.body.code).toBe('payload_too_large');
    await request(ctx.app).patch('/admin/v1/partner/branding').set('Authorization', `Bearer ${adminToken(ctx, owner)}`).set('Content-Type', 'text/plain').send('display_name=x').expect(415);
    await request(ctx.app).patch('/admin/v1/partner/branding').send({ display_name: 'x' }).expect(401);
  });

  it('records each change in the audit log (what was set, by whom); a refused change records nothing', async () => {
    const owner = newAdmin();
    const operator = { ...owner, sub: `${owner.sub}_op`, role: 'operator' as const };
    await branding(operator).patch({ display_name: 'Mama Put Kitchen', brand_color: '#0B6E4F', logo: dataUrl(logoPng()) }).expect(200);
    await branding(owner).patch({ brand_color: 'green' }).expect(422);
    await branding(owner).patch({ brand_color: '#123456' }).expect(200);
    const log = await request(ctx.app).get('/admin/v1/audit-log').set('Authorization', `Bearer ${adminToken(ctx, owner)}`).expect(200);
    expect(log.body.data).toEqual([
      // A change keeps what it changed, before and after (never the logo's bytes); the first one had nothing before.
      expect.objectContaining({ action: 'branding.updated', actor_id: owner.sub, mode: 'live', before: { brand_color: '#0b6e4f' }, after: { brand_color: '#123456' } }),
      expect.objectContaining({
        action: 'branding.updated',
        actor_id: operator.sub,
        actor_role: 'operator',
        mode: 'live',
        details: { display_name: 'Mama Put Kitchen', brand_color: '#0B6E4F' },
        before: null,
        after: { display_name: 'Mama Put Kitchen', brand_color: '#0b6e4f', logo_content_type: 'image/png' }, // as stored
      }),
    ]);
  });
});
