import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64 } from './factories/templates';

/**
 * The credential is an Open Badges 3.0 `OpenBadgeCredential` by 1EdTech's own JSON Schema, the one its
 * `credentialSchema` names (https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json,
 * JSON Schema draft 2019-09), checked with ajv offline against the copy in test/fixtures (its source is in
 * test/fixtures/README.md). Also the badge the credential names as its achievement's image, and the credential.json
 * kept once signed.
 */
const PUBLIC_BASE_URL = 'https://certificates.example.test:8443';
const SCHEMA_URL = 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json';
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx, { orgName: 'Jos Agricultural Academy' });
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);

const schema = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'ob_v3p0_achievementcredential_schema.json'), 'utf8')) as { $schema: string };
const ajv = new Ajv2019({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** ajv's errors as `path: message` lines, so a failure names what the schema refused. */
function schemaErrors(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message} ${JSON.stringify(error.params)}`);
}

const credentialJson = async (code: string) => JSON.parse((await app().get(`/credentials/${code}/credential.json`).expect(200)).text) as Record<string, unknown> & { proof: object };
const credentialJwt = async (code: string) => (await app().get(`/credentials/${code}`).set('Accept', 'application/vc+jwt').expect(200)).text;

/** The RGBA of one pixel of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return [...context.getImageData(x, y, 1, 1).data];
}

const badge = (code: string) => app().get(`/credentials/${code}/badge.png`).buffer(true).parse(binary);

describe("1EdTech's Open Badges 3.0 JSON Schema", () => {
  it('is the schema the credential names, draft 2019-09', () => {
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2019-09/schema#', title: 'JSON Schema for the AchievementCredential class.' });
  });

  it('a fresh credential validates with no error, as the JWT payload and as credential.json minus its proof; revoked, it still does and says revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Ngozi Adeyemi', program_title: 'Soil Science', expires_on: '2099-12-31' });
    const payload = decodeJwt(await credentialJwt(certificate.verification_code));
    const { proof, ...document } = await credentialJson(certificate.verification_code);
    expect(proof).toMatchObject({ type: 'DataIntegrityProof' });
    expect(payload.credentialSchema).toEqual([{ id: SCHEMA_URL, type: '1EdTechJsonSchemaValidator2019' }]);
    expect(schemaErrors(payload)).toEqual([]);
    expect(schemaErrors(document)).toEqual([]);
    // The schema's one rule the signed file breaks: it wants every collection as an array, `proof` too (1EdTech's
    // openbadges-specification#473), where Data Integrity gives one proof as an object, as VC 2.0 allows.
    expect(schemaErrors({ ...document, proof })).toEqual(['/proof: must be array {"type":"array"}']);
    expect(schemaErrors({ ...document, proof: [proof] })).toEqual([]);
    // The parts the schema leaves optional and the credential fills: the criteria, the image, the real issue time.
    const issuedAt = (certificate as unknown as { created_at: string }).created_at;
    expect(document).toMatchObject({
      validFrom: `${issuedAt.slice(0, 19)}Z`,
      credentialSubject: {
        achievement: {
          criteria: { narrative: 'Completed Soil Science as recorded by Jos Agricultural Academy.' },
          image: { id: `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}/badge.png`, type: 'Image', caption: 'Badge of Soil Science, awarded by Jos Agricultural Academy' },
        },
      },
    });

    await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const revoked = await credentialJson(certificate.verification_code);
    const { proof: revokedProof, ...revokedDocument } = revoked;
    expect(schemaErrors(revokedDocument)).toEqual([]);
    expect(revokedProof).toEqual(proof);
    expect(schemaErrors(decodeJwt(await credentialJwt(certificate.verification_code)))).toEqual([]);
    const verdict = await app().post('/credentials/verify').send({ credential: revoked }).expect(200);
    expect(verdict.body).toMatchObject({ status: 'revoked', valid: false });
  });

  it('refuses what is not an Open Badges credential (the check is real)', async () => {
    const certificate = await issueCertificate(ctx, org);
    const { proof: _proof, ...document } = await credentialJson(certificate.verification_code);
    const subject = document.credentialSubject as { achievement: Record<string, unknown> };
    const { criteria: _criteria, ...withoutCriteria } = subject.achievement;
    expect(schemaErrors({ ...document, credentialSubject: { ...subject, achievement: withoutCriteria } })).toEqual([expect.stringMatching(/^\/credentialSubject\/achievement: must have required property 'criteria'/)]);
    expect(schemaErrors({ ...document, credentialSubject: { ...subject, achievement: { ...subject.achievement, image: { id: 'x', type: 'Picture' } } } })).not.toEqual([]);
    expect(schemaErrors({ ...document, validFrom: 'yesterday' })).toEqual([expect.stringMatching(/^\/validFrom: must match format "date-time"/)]);
  });
});

describe('GET /credentials/{code}/badge.png: the achievement image', () => {
  it("without a template logo: a round badge in the accent colour, a day's cache, 304 on its ETag", async () => {
    const certificate = await issueCertificate(ctx, org, { program_title: 'Animal Husbandry' });
    const res = await badge(certificate.verification_code).expect(200);
    expectToMatchRouteTable(res);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const png = res.body as Buffer;
    const image = await loadImage(png);
    expect([image.width, image.height]).toEqual([400, 400]);
    // The built-in layout's accent (#1D4ED8) inside the disc's edge; outside the disc, transparent.
    expect(await pixel(png, 200, 10)).toEqual([0x1d, 0x4e, 0xd8, 255]);
    expect((await pixel(png, 3, 3))[3]).toBe(0);

    const again = await app().get(`/credentials/${certificate.verification_code}/badge.png`).set('If-None-Match', res.headers.etag!).expect(304);
    expectToMatchRouteTable(again);
    // The same programme, the same picture (drawn once).
    const other = await issueCertificate(ctx, org, { program_title: 'Animal Husbandry' });
    expect(((await badge(other.verification_code).expect(200)).body as Buffer).equals(png)).toBe(true);
  });

  it("with a template logo: the logo in the middle, on the template's accent", async () => {
    const logo = pngBase64(80, 80, '#C0392B');
    const template = await createTemplate(ctx, org, { colors: { background: '#FFFFFF', text: '#111111', accent: '#0B5394' }, logo: { data: logo } });
    const issued = await app()
      .post('/admin/v1/certificates')
      .set('Authorization', org.admin())
      .send({ recipient_name: 'Emeka Obi', program_title: 'Agronomy', issue_date: '2026-05-01', template_id: template.id, custom_fields: { grade: 'A' } })
      .expect(201);
    const png = (await badge(issued.body.verification_code).expect(200)).body as Buffer;
    expect(await pixel(png, 200, 200)).toEqual([0xc0, 0x39, 0x2b, 255]);
    expect(await pixel(png, 200, 10)).toEqual([0x0b, 0x53, 0x94, 255]);
    // The credential names it; the page shows it.
    const credential = await credentialJson(issued.body.verification_code);
    expect((credential.credentialSubject as { achievement: { image: { id: string } } }).achievement.image.id).toBe(`${PUBLIC_BASE_URL}/credentials/${issued.body.verification_code}/badge.png`);
    const page = await app().get(`/credentials/${issued.body.verification_code}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`<img class="badge" src="/credentials/${issued.body.verification_code}/badge.png" alt="Badge of Agronomy" width="96" height="96">`);
  });

  it('an unknown or malformed code is a 404 problem', async () => {
    for (const code of ['ABCDEF-GHJKMN-PQRSTU', 'not-a-code']) {
      const res = await app().get(`/credentials/${code}/badge.png`).expect(404);
      expectToMatchRouteTable(res);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('credential.json is signed once', () => {
  it('a repeated download is the same document, without signing it again', async () => {
    const certificate = await issueCertificate(ctx, org, { program_title: 'Farm Management' });
    await credentialJson((await issueCertificate(ctx, org)).verification_code); // the libraries are loaded
    const timed = async () => {
      const started = process.hrtime.bigint();
      const text = (await app().get(`/credentials/${certificate.verification_code}/credential.json`).expect(200)).text;
      return { text, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const cold = await timed();
    const warm = [];
    for (let repeat = 0; repeat < 5; repeat++) warm.push(await timed());
    for (const { text } of warm) expect(text).toBe(cold.text);
    // Signing canonicalizes the credential (tens of milliseconds even with the libraries loaded); a kept document is a
    // database read. The fastest repeat, so that one slow moment of a shared machine does not decide.
    expect(Math.min(...warm.map(({ ms }) => ms))).toBeLessThan(cold.ms / 2);
  });
});
