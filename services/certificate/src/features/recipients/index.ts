/** The recipients feature's face: the mails a certificate's recipient gets, and their delivery. */
export { createRecipientDeliveries, STALE_PENDING_SECONDS, type RecipientDeliveries } from './recipient-deliveries';
