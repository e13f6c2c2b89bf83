/**
 * The baseline for bench:verify: bare node:http + pg answering the same single query as the service
 * (key by hash, certificate in its organization), with none of Express, validation or logging.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c search_path=certificate' });
const SQL = `select o.name as organization_name, c.recipient_name, c.program_title, c.issue_date::text as issue_date,
                    c.certificate_number, c.status, c.expires_on::text as expires_on
               from api_keys k
               join organizations o on o.id = k.organization_id
               left join certificates c on c.organization_id = k.organization_id and c.verification_code = $1
              where k.token_hash = $2 and k.status = 'active'`;

createServer(async (req, res) => {
  const token = (req.headers.authorization ?? '').slice(7);
  const code = decodeURIComponent((req.url ?? '').split('/').pop() ?? '').replace(/-/g, '').toUpperCase();
  const { rows } = await pool.query(SQL, [code, createHash('sha256').update(token).digest('hex')]);
  const row = rows[0];
  if (!row) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid or revoked API key"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ valid: row.status === 'valid', ...row, certificate_status: row.status }));
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
