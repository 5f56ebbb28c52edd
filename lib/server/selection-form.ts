import 'server-only';
/**
 * The start form (POST /auth/start) as a typed selection. An empty body is the default selection
 * (README "How it works"), so a bare `<form method="post">` works without JavaScript.
 *
 * Fields: `trust_framework`; `claim` (repeated claim names); `essential` (repeated claim names);
 * `evidence` (repeated: `document`, `population_register`); `document_detail` (repeated);
 * `personal_number`; `send_anyway` (QA: send even when the service's rules say no); `preset`
 * (a preset's id: its selection and its policy, whatever else was sent — so preset buttons work
 * without JavaScript); `policy` (a preset's id: its policy for the selection sent, which the
 * picker adds while a preset's selection is unchanged).
 */
import {
  CLAIM_NAMES,
  DEFAULT_SELECTION,
  DOCUMENT_DETAILS,
  selectionProblems,
  type ClaimName,
  type DocumentDetail,
  type Selection,
} from '@/lib/oidc';
import { readBoundedText } from '@/lib/oidc/http';
import { OWN_SELECTION_POLICY, type AssurancePolicy } from '@/lib/view/assurance';
import { findPreset } from '@/lib/view/presets';
import { selectionQuery } from '@/lib/view/selection-link';
import { AppError, quoteInput } from './app-error';

/** The picker's form is a few hundred bytes; anything near this is not from it. */
const MAX_FORM_BYTES = 16 * 1024;

const FIELDS = new Set(['trust_framework', 'claim', 'essential', 'evidence', 'document_detail', 'personal_number', 'send_anyway', 'preset', 'policy']);

function invalid(message: string): AppError {
  return new AppError('invalid_selection', message);
}

function oneOf<T extends string>(values: readonly T[], value: string, field: string): T {
  if (!(values as readonly string[]).includes(value)) throw invalid(`${quoteInput(value)} is not a known ${field}`);
  return value as T;
}

/**
 * `enforceRules: false` lets through a selection the service's rules refuse (as `send_anyway`
 * does): a link may hold one, and the picker then says what the service will refuse.
 */
export function parseSelectionForm(form: URLSearchParams, { enforceRules = true }: { enforceRules?: boolean } = {}): Selection {
  const names = [...new Set(form.keys())];
  if (names.length === 0) return DEFAULT_SELECTION;
  for (const name of names) if (!FIELDS.has(name)) throw invalid(`Unknown form field ${quoteInput(name)}`);
  const presetId = form.get('preset');
  if (presetId !== null) {
    const preset = findPreset(presetId);
    if (!preset) throw invalid(`${quoteInput(presetId)} is not a known preset`);
    return preset.selection;
  }

  const trustFramework = form.get('trust_framework') ?? DEFAULT_SELECTION.trustFramework;
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(trustFramework)) throw invalid('The trust framework is not a valid value');

  const essential = new Set(form.getAll('essential').map((v) => oneOf(CLAIM_NAMES, v, 'claim')));
  const claims: Selection['claims'] = {};
  for (const value of form.getAll('claim')) {
    const name: ClaimName = oneOf(CLAIM_NAMES, value, 'claim');
    claims[name] = { essential: essential.has(name) };
  }

  const evidence = new Set(form.getAll('evidence').map((v) => oneOf(['document', 'population_register'] as const, v, 'evidence type')));
  const details: DocumentDetail[] = form.getAll('document_detail').map((v) => oneOf(DOCUMENT_DETAILS, v, 'document detail'));
  const personalNumber = form.get('personal_number')?.trim();
  // Even a QA request that breaks the service's rules stays small (it travels in the request object).
  if (personalNumber && personalNumber.length > 32) throw invalid('The personal number to look up is too long');

  const selection: Selection = {
    trustFramework,
    claims,
    ...(evidence.has('document') ? { document: { details: [...new Set(details)] } } : {}),
    ...(evidence.has('population_register') ? { populationRegister: personalNumber ? { personalNumber } : {} } : {}),
  };
  if (enforceRules && form.get('send_anyway') !== '1') {
    const [problem] = selectionProblems(selection);
    if (problem) throw invalid(problem);
  }
  return selection;
}

/**
 * Reads the start form from a POST /auth/start request: at most 16 KiB, urlencoded (an empty
 * body, whatever its type, is the default selection).
 * @throws AppError `invalid_selection` for a body too large, of another type, or not a valid selection
 */
/** What the start form asks for: a selection, and the policy its result will be judged by. */
export interface StartForm {
  selection: Selection;
  policy: AssurancePolicy;
}

/** The selection of the form, with its preset's policy (a selection of one's own: OWN_SELECTION_POLICY). */
export function parseStartForm(form: URLSearchParams): StartForm {
  const selection = parseSelectionForm(form);
  const presetId = form.get('preset') ?? form.get('policy');
  if (presetId === null) return { selection, policy: OWN_SELECTION_POLICY };
  const preset = findPreset(presetId);
  if (!preset) throw invalid(`${quoteInput(presetId)} is not a known preset`);
  // A preset's policy goes only with its own selection: a changed one is judged as one's own
  // (a form sent without JavaScript keeps the server-rendered `policy` field whatever was ticked).
  const same = selectionQuery(selection).toString() === selectionQuery(preset.selection).toString();
  return { selection, policy: same ? preset.policy : OWN_SELECTION_POLICY };
}

export async function readStartForm(request: Request): Promise<StartForm> {
  const contentType = request.headers.get('content-type') ?? '';
  const body = await readBoundedText(request, MAX_FORM_BYTES);
  if (body === undefined) throw invalid('The start form is too large');
  if (body.length > 0 && !contentType.startsWith('application/x-www-form-urlencoded')) {
    throw invalid('The start form must be sent as application/x-www-form-urlencoded');
  }
  return parseStartForm(new URLSearchParams(body));
}
