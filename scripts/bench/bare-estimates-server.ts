/**
 * The baseline for bench:estimates: bare node:http + pg + ioredis doing the I/O of POST /api/v1/estimates — the API key
 * looked up by its hash, one pipeline of GEOSEARCH per tier in the partner's and the platform's index, one insert — and
 * answering the same JSON shape; none of Express, validation, logging, metrics or the key cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createRedis } from '@platform/service-kit/redis';
import { Pool } from 'pg';

const TIERS = ['moto', 'economy', 'comfort', 'xl'] as const;
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c search_path=mobility' });
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = process.env.REDIS_PREFIX ?? 'platform';
const KEY_SQL = `select id, partner_id, scopes from api_keys
                  where status = 'active' and (expires_at is null or expires_at > now())
                    and (token_hash = $1 or (previous_token_hash = $1 and previous_token_expires_at > now())) limit 1`;
const INSERT_SQL = `insert into estimates (id, partner_id, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, distance_meters, fares, expires_at)
                    values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

function meters(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return Math.round(2 * 6371000 * Math.asin(Math.sqrt(h)) * 1.3);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const token = String(req.headers['x-api-key'] ?? '');
    const { rows } = await pool.query(KEY_SQL, [createHash('sha256').update(token).digest('hex')]);
    const key = rows[0];
    if (!key) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid API key"}');
      return;
    }
    const { pickup, dropoff } = JSON.parse(Buffer.concat(chunks).toString()) as { pickup: { lat: number; lng: number }; dropoff: { lat: number; lng: number } };
    const pipeline = redis.pipeline();
    for (const tier of TIERS) {
      for (const scope of [`org:${key.partner_id}`, 'platform']) {
        pipeline.geosearch(`${prefix}:fleet:geo:driver:${tier}:${scope}`, 'FROMLONLAT', pickup.lng, pickup.lat, 'BYRADIUS', 500, 'm', 'ASC', 'COUNT', 1, 'WITHDIST');
      }
    }
    const found = (await pipeline.exec()) ?? [];
    const distance = meters(pickup, dropoff);
    const estimates = TIERS.map((tier, i) => {
      const nearest = (found[i * 2 + 1]?.[1] as [string, string][] | undefined)?.[0];
      return { tier, display_name: tier, fare: { amount: 1000 + distance, currency: 'NGN' }, duration_seconds: Math.round(distance / 8), pickup_eta_seconds: nearest ? Math.round(Number(nearest[1]) / 8) : null, available: Boolean(nearest) };
    });
    const id = `est_${randomBytes(10).toString('hex')}`;
    const expiresAt = new Date(Date.now() + 600_000);
    const fares = Object.fromEntries(estimates.map((e) => [e.tier, e.fare]));
    await pool.query(INSERT_SQL, [id, key.partner_id, pickup.lat, pickup.lng, dropoff.lat, dropoff.lng, distance, JSON.stringify(fares), expiresAt]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, expires_at: expiresAt.toISOString(), distance_meters: distance, duration_seconds: Math.round(distance / 8), estimates }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
