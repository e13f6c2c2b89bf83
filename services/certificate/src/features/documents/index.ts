/** The documents feature's face: what other features use of it. */
export { BUILT_IN_TEMPLATE } from './built-in-template';
export { DOCUMENT_CONTENT_TYPES, type DocumentsService, credentialPageUrl } from './documents.service';
export { canvasFamily } from './document-fonts';
export { qrCodePng } from './qr-code';
/** One formatter of the issue date and one rule for the issuer's name, for the document and the credential page alike. */
export { humanDate, issuerNameOf } from './document-dates';
