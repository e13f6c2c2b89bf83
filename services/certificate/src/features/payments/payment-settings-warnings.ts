import type { Logger } from '@platform/service-kit/logger';
import type { CertificateConfig } from '../../config';

/** Start-up warnings about payment settings that production should not run with. */
export function warnAboutPaymentSettings(config: CertificateConfig, logger: Logger): void {
  if (config.NODE_ENV === 'production' && !config.GATEWAY_B_SECRET_HASH) {
    logger.warn(
      { variable: 'GATEWAY_B_SECRET_HASH' },
      'GATEWAY_B_SECRET_HASH is unset: gateway B webhooks cannot be authenticated, so they are recorded but never change a payment',
    );
  }
  // An invoice must name its seller: a production platform that takes payments says who it is.
  if (config.NODE_ENV === 'production') {
    const unset = (['INVOICE_SELLER_ADDRESS', 'INVOICE_SELLER_TAX_ID'] as const).filter((name) => !config[name]);
    if (unset.length > 0) logger.warn({ variables: unset }, `${unset.join(' and ')} unset: invoices name the seller (${config.INVOICE_SELLER_NAME}) without them`);
  }
}
