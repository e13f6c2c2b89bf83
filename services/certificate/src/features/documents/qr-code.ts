import QRCode from 'qrcode';

/** A QR code (PNG, black on white, error correction M) of `url`: on the documents, and in the recipient mail. */
export function qrCodePng(url: string, width = 600): Promise<Buffer> {
  return QRCode.toBuffer(url, { errorCorrectionLevel: 'M', margin: 2, width, color: { dark: '#000000', light: '#FFFFFF' } });
}
