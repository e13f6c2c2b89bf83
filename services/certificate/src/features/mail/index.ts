/** The mail feature's face: what other features use of it. */
export { type MailMessage, type Mailer } from './mailer';
