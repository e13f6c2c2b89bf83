import { createLogger } from '@platform/service-kit';
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
});
