export interface DrillResult {
  name: string;
  /** What was sent, in words and counts. */
  sent: string;
  /** What arrived or took effect. */
  arrived: string;
  /** Events or payments lost: must be 0. */
  lost: number;
  /** Payments applied twice (or events delivered twice after a 2xx): must be 0. */
  doubleApplied: number;
}
