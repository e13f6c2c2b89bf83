import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { securityHeaders } from '../src/security-headers';

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets, computed once', async () => {
    const options = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;
    const withHelmet = express().use(helmet(options)).get('/', (_req, res) => void res.json({}));
    const withPrecomputed = express().use(securityHeaders(options)).get('/', (_req, res) => void res.json({}));
    const expected = (await request(withHelmet).get('/')).headers;
    const actual = (await request(withPrecomputed).get('/')).headers;
    const names = Object.keys(expected).filter((name) => !['date', 'etag', 'content-length', 'connection', 'keep-alive'].includes(name));
    expect(names).toEqual(expect.arrayContaining(['x-content-type-options', 'strict-transport-security', 'x-frame-options']));
    for (const name of names) expect([name, actual[name]]).toEqual([name, expected[name]]);
  });
});
