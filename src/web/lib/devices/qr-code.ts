/**
 * A QR code of `text` as an SVG data URL, for an <img> (the CSP allows data: images). The encoder (~10 KB gzip)
 * loads on the first code drawn. Dark modules on white whatever the colour scheme: phone cameras read that best.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const qrcode = await import('qrcode');
  const svg = await qrcode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
