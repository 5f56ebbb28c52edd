/**
 * GET /portraits/<persona id>.jpg: the persona thumbnails shown by the simulated identity app.
 * Only ids of known personas are served, so the path never reaches the file system unchecked.
 * @see spec part 1 (the mobile identity app), 2.3 `picture`
 */
import type { EmulatorContext } from '../context';
import { NotFound } from '../errors';
import { findPersona, loadPortrait } from '../personas/personas';

/**
 * Handles GET /portraits/<id>.jpg; the images are fixed for a deployment, so they may be cached
 * for a day.
 * @see spec part 1
 */
export async function portraitEndpoint(request: Request, _context: EmulatorContext, personaId: string): Promise<Response> {
  const persona = findPersona(personaId);
  const portrait = persona ? await loadPortrait(persona) : undefined;
  if (!portrait) throw new NotFound(new URL(request.url).pathname);
  return new Response(portrait, {
    status: 200,
    headers: {
      'Content-Type': 'image/jpeg',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
