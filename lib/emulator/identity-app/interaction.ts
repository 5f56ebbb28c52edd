/**
 * An open interaction: finding it by its public id, and telling the browser that started it
 * (which holds its `browserSecret`, only in the page GET /auth returned) from anyone else who
 * knows the id (it is in the QR code). Only the starting browser may receive the redirect that
 * carries the code.
 * @see spec part 1 (steps 3–6), 4.2
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RegisteredClient } from '../clients';
import type { EmulatorContext } from '../context';
import { InvalidRequest } from '../errors';
import type { Interaction } from '../state';
import { completedInteraction } from './used-flows';

/**
 * The open interaction with this id.
 * @throws InvalidRequest (400) when it is unknown, expired or already completed
 */
export async function findInteraction(context: EmulatorContext, interactionId: string): Promise<Interaction> {
  const interaction = await context.interactions.get(interactionId);
  if (!interaction) {
    const used = await completedInteraction(context, interactionId);
    throw used || (await context.interactions.wasTaken(interactionId))
      ? new InvalidRequest('this verification has already been completed').because('verification_completed').usedBy(used)
      : new InvalidRequest('this verification is unknown or has expired; start again from the application').because('verification_unknown');
  }
  return interaction;
}

/**
 * Whether `presented` is the interaction's browser secret. Compared in constant time (over
 * SHA-256 digests, so neither the content nor the length of the secret leaks through timing).
 */
function isStartingBrowser(interaction: Interaction, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(interaction.browserSecret), digest(presented));
}

/** @throws InvalidRequest (403) unless `presented` is the interaction's browser secret */
export function requireStartingBrowser(interaction: Interaction, presented: string): void {
  if (!isStartingBrowser(interaction, presented)) {
    throw new InvalidRequest('the browser secret does not match: only the browser that started this verification can continue it', 403).because(
      'wrong_browser',
    );
  }
}

/** The client of an interaction (clients are fixed for an emulator's lifetime). */
export function interactionClient(context: EmulatorContext, interaction: Interaction): RegisteredClient {
  const client = context.clients.get(interaction.clientId);
  // Unreachable: registrations cannot be removed. The router reports it as a server_error.
  if (!client) throw new Error(`client '${interaction.clientId}' of an interaction no longer exists`);
  return client;
}
