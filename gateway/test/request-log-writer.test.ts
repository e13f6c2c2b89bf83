import { createLogger } from '@platform/service-kit/logger';
import { requestLineWriter } from '../src/request-log-writer';
import { captureLines } from './helpers';

describe('request line writer', () => {
  it('writes the same JSON line as the logger would, time aside', () => {
    const logs = captureLines();
    const logger = createLogger('gateway', 'info', logs.stream);
    const fields = { request_id: 'req "1"', trace_id: 'abc', method: 'GET', route: '/api/v1/verify/', status: 200, duration_ms: 1.5, api_key_fingerprint: '0123456789ab' };
    logger.info(fields, 'request');
    requestLineWriter(logger)(fields, 'request');
    const [viaLogger, viaWriter] = logs.lines();
    expect(viaWriter).toEqual({ ...viaLogger, time: expect.any(String) });
    expect(Object.keys(viaWriter!)).toEqual(Object.keys(viaLogger!));
  });

  it('writes nothing below the logger’s level', () => {
    const logs = captureLines();
    requestLineWriter(createLogger('gateway', 'warn', logs.stream))({ status: 200 }, 'request');
    expect(logs.lines()).toEqual([]);
  });

  it('with batch, hands the lines of one event-loop turn to the stream as one write at the end of the turn', async () => {
    const writes: string[] = [];
    const write = requestLineWriter(createLogger('gateway', 'info', { write: (line: string) => void writes.push(line) }), { batch: true });
    write({ request_id: 'a' }, 'request');
    write({ request_id: 'b' }, 'request');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.request_id)).toEqual(['a', 'b']);
  });
});
