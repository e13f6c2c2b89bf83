/** The documents feature's face: what other features use of it. */
export { BUILT_IN_TEMPLATE } from './built-in-template';
export { DOCUMENT_CONTENT_TYPES, type DocumentsService, credentialPageUrl } from './documents.service';
export { canvasFamily } from './document-fonts';
export { qrCodePng } from './qr-code';
