import type { ResourceLimits } from '@platform/service-kit/governor';
import type { CertificateConfig } from '../config';

/** The governor's limits per cost class, from the configuration (a paying account: GOVERNOR_PAID_FACTOR times each). */
export function governorLimits(config: CertificateConfig): Record<'render' | 'bulk' | 'mail', ResourceLimits> {
  const byPlan = (free: number) => ({ free, paid: free * config.GOVERNOR_PAID_FACTOR });
  const limits = (what: string, perProcess: number, perAccount: number, perAccountPerMinute?: number): ResourceLimits => ({
    what,
    perProcess,
    perAccount: byPlan(perAccount),
    ...(perAccountPerMinute ? { perAccountPerMinute: byPlan(perAccountPerMinute) } : {}),
    paidWeight: config.GOVERNOR_PAID_FACTOR,
  });
  return {
    render: limits('template uploads, previews and documents', config.GOVERNOR_RENDERS_PER_PROCESS, config.GOVERNOR_RENDERS_PER_ACCOUNT, config.GOVERNOR_RENDERS_PER_ACCOUNT_PER_MINUTE),
    bulk: limits('batch issues', config.GOVERNOR_BULK_PER_PROCESS, config.GOVERNOR_BULK_PER_ACCOUNT, config.GOVERNOR_BULK_PER_ACCOUNT_PER_MINUTE),
    mail: limits('sign-ups, reset requests, invitations and recipient mails', config.GOVERNOR_MAIL_PER_PROCESS, config.GOVERNOR_MAIL_PER_ACCOUNT),
  };
}
