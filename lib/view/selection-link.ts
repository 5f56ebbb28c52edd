/**
 * A shareable link to a request: the picker's selection in the home page's query, with the start
 * form's field names (lib/server/selection-form.ts), so that a link opens the same request.
 *
 * - An unchanged preset is `?preset=<id>`; the default selection is the bare home page.
 * - Never anything secret or personal: the personal number to look up in the register stays
 *   out (the link says only that the register is asked), and so does QA's "send anyway".
 * Pure; the picker (in the browser) writes links, the home page (on the server) reads them.
 */
import { DEFAULT_SELECTION } from '@/lib/oidc/claims-request';
import { CLAIM_NAMES, DOCUMENT_DETAILS, type Selection } from '@/lib/oidc/types';

/** The start form's fields for `selection`, in a fixed order, so that one selection makes one link. */
function fieldsOf(selection: Selection): URLSearchParams {
  const query = new URLSearchParams({ trust_framework: selection.trustFramework });
  for (const name of CLAIM_NAMES) if (selection.claims[name]) query.append('claim', name);
  for (const name of CLAIM_NAMES) if (selection.claims[name]?.essential) query.append('essential', name);
  if (selection.document) {
    query.append('evidence', 'document');
    for (const detail of DOCUMENT_DETAILS) if (selection.document.details.includes(detail)) query.append('document_detail', detail);
  }
  if (selection.populationRegister) query.append('evidence', 'population_register');
  return query;
}

const DEFAULT_FIELDS = fieldsOf(DEFAULT_SELECTION).toString();

/** The query of a link to `selection` (`preset`: the preset it is, unchanged); empty for the default. */
export function selectionQuery(selection: Selection, preset?: string): URLSearchParams {
  if (preset !== undefined) return new URLSearchParams({ preset });
  const fields = fieldsOf(selection);
  return fields.toString() === DEFAULT_FIELDS ? new URLSearchParams() : fields;
}

/** The path and query of a link to `selection` on the home page. */
export function selectionLink(selection: Selection, preset?: string): string {
  const query = selectionQuery(selection, preset).toString();
  return query ? `/?${query}` : '/';
}
