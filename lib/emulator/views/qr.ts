/**
 * The QR code on the authorization page that opens the simulated identity app on a phone:
 * inline SVG made on the server, so the page needs no script and no image request to show it.
 * @see spec part 1 (step 4: the user verifies in the mobile identity app)
 */
import { toString as qrCodeText } from 'qrcode';
import { SafeHtml, html } from './html';

/**
 * An accessible inline SVG QR code for `url`. The library writes only `<svg>` and `<path>`
 * elements with numeric path data (the URL is encoded into the modules, never echoed as text), so
 * its output is trusted after a check of its shape; `label` becomes the image's accessible name.
 * @throws Error if the library produced something else (a library change, not user input)
 */
export async function qrCodeSvg(url: string, label: string): Promise<SafeHtml> {
  // Error correction M survives a little glare on a laptop screen; a quiet zone of 2 modules
  // is enough on the page's white card.
  const svg = await qrCodeText(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  if (
    !/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d ]+" shape-rendering="crispEdges">(<path [a-z-]+="#[0-9a-f]{6}" d="[MmHhVvZz\d. -]+"\/>)+<\/svg>\s*$/.test(
      svg,
    )
  ) {
    throw new Error('qrcode produced SVG of an unexpected shape');
  }
  const opening = html`<svg role="img" aria-label="${label}" focusable="false" `.value;
  // A function replacement, so `$&` and the like in the label stay literal.
  return new SafeHtml(svg.trim().replace('<svg ', () => opening));
}
