import type { Redis } from '@platform/service-kit/redis';
import type { LatLng } from '../../platform/geo';

export interface LocationThrottleRule {
  /** A job's location webhook goes out at most this often while the driver stays within `minMeters`… */
  minIntervalMs: number;
  /** …or as soon as the driver is this far (great-circle) from the point of the job's last location webhook. */
  minMeters: number;
}
/** The last emitted point outlives the longest pause between two reports of a job; then the next report emits. */
const LAST_POINT_TTL_S = 3600;

/**
 * Atomic check-and-set of a job's last emitted point, so concurrent reports of the same job (two API processes) let
 * at most one of them through. Time is Redis's own clock, the same for every process. Answers 1 when the report
 * should emit (no earlier point, the interval passed, or the distance moved) and records it as the new last point; else 0.
 */
const THROTTLE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lat, lng = tonumber(ARGV[1]), tonumber(ARGV[2])
local last = redis.call('HMGET', KEYS[1], 'lat', 'lng', 'at')
if last[1] and last[2] and last[3] then
  local rad = math.pi / 180
  local lastLat = tonumber(last[1])
  local dLat = (lat - lastLat) * rad
  local dLng = (lng - tonumber(last[2])) * rad
  local h = math.sin(dLat / 2) ^ 2 + math.cos(lastLat * rad) * math.cos(lat * rad) * math.sin(dLng / 2) ^ 2
  local meters = 2 * 6371008.8 * math.asin(math.min(1, math.sqrt(h)))
  if now - tonumber(last[3]) < tonumber(ARGV[3]) and meters < tonumber(ARGV[4]) then return 0 end
end
redis.call('HSET', KEYS[1], 'lat', ARGV[1], 'lng', ARGV[2], 'at', now)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
`;

type ThrottleCommand = (key: string, lat: number, lng: number, minIntervalMs: number, minMeters: number, ttlSeconds: number) => Promise<number>;

/** The per-job gate of location webhooks, in Redis under `${prefix}:telemetry:last-event:<job id>`. */
export function createLocationThrottle(redis: Redis, prefix: string, rule: LocationThrottleRule) {
  const commands = redis as unknown as { telemetryLocationThrottle?: ThrottleCommand };
  if (!commands.telemetryLocationThrottle) redis.defineCommand('telemetryLocationThrottle', { numberOfKeys: 1, lua: THROTTLE_SCRIPT });
  const throttle = commands.telemetryLocationThrottle!.bind(redis);
  return {
    /** Whether this report of the job's position should become a webhook event (and if so, it is now the last point). */
    async shouldEmit(jobId: string, at: LatLng): Promise<boolean> {
      const emit = await throttle(`${prefix}:telemetry:last-event:${jobId}`, at.lat, at.lng, rule.minIntervalMs, rule.minMeters, LAST_POINT_TTL_S);
      return emit === 1;
    },
  };
}
