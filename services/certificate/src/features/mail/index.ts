/** The mail feature's face: what other features use of it. */
export { MailUnavailableError, type InlineImage, type MailMessage, type Mailer } from './mailer';
