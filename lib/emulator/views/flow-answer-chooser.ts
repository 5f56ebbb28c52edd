/**
 * The QA control on a flow's own pages (the authorization page, the identity app's screens): a
 * collapsed disclosure, clearly marked as QA, with a labelled `<select>` of how the service
 * answers this one verification (qa/flow-answers.ts). It posts to the app's own address with the
 * flow's binding (the browser secret, or the confirmed phone's device secret), like every other
 * form of those pages. It is shown only to a browser that may use the QA panel.
 * @see qa/flow-answers.ts, endpoints/identity-app.ts (`action=choose-answer`)
 */
import type { Locale } from '../../i18n/locale';
import { FAULTS, faultById } from '../qa/faults';
import { FLOW_ERRORS, FLOW_FAULTS, encodeFlowAnswer, flowErrorById, type FlowAnswer } from '../qa/flow-answers';
import { html, type SafeHtml } from './html';
import { EMULATOR_MESSAGES } from './messages';
import { PANEL_MESSAGES } from './panel-messages';

/** What the chooser needs: where it posts, the flow's binding and way back, and the answer chosen so far. */
export interface FlowAnswerChooser {
  /** the app's address for this interaction (POST /app/<id>) */
  action: string;
  /** the flow's binding (`browser` or `device`) and where to come back (`from`, `step`) */
  fields: Record<string, string>;
  current: FlowAnswer;
}

/** The words for an answer, in the page's language. */
export function flowAnswerText(locale: Locale, answer: FlowAnswer): string {
  const t = EMULATOR_MESSAGES[locale].qa;
  switch (answer.kind) {
    case 'normal':
      return t.normal;
    case 'fault': {
      const fault = faultById(answer.fault);
      const { label } = PANEL_MESSAGES[locale].faultTexts[answer.fault];
      return fault.kind === 'refusal' ? t.faultOption(label, fault.expected) : t.variantOption(label);
    }
    case 'error': {
      const error = flowErrorById(answer.error);
      return t.errorOption(error.error, t.errorMeanings?.[error.id] ?? error.description);
    }
  }
}

/** The disclosure with the chooser; `idPrefix` keeps its ids unique on the page. */
export function flowAnswerChooser(locale: Locale, chooser: FlowAnswerChooser, idPrefix = 'qa-answer'): SafeHtml {
  const t = EMULATOR_MESSAGES[locale].qa;
  const current = encodeFlowAnswer(chooser.current);
  const option = (answer: FlowAnswer) => {
    const value = encodeFlowAnswer(answer);
    return html`<option value="${value}"${value === current ? html` selected` : ''}>${flowAnswerText(locale, answer)}</option>`;
  };
  const chosen = chooser.current.kind !== 'normal';
  return html`${chosen ? html`<p class="qa-chosen" role="status" data-testid="qa-answer-chosen">${t.chosen(flowAnswerText(locale, chooser.current))}</p>` : ''}
<details class="qa-answer" data-testid="qa-answer" data-answer="${current}">
<summary>${t.summary} <span class="qa-now">(${t.now(flowAnswerText(locale, chooser.current))})</span></summary>
<form method="post" action="${chooser.action}">${Object.entries(chooser.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="action" value="choose-answer">
<label for="${idPrefix}-select">${t.label}</label>
<p id="${idPrefix}-hint" class="hint">${t.hint}</p>
<select id="${idPrefix}-select" name="answer" aria-describedby="${idPrefix}-hint" data-testid="qa-answer-select">
${option({ kind: 'normal' })}
<optgroup label="${t.faults}">${FAULTS.filter((fault) => fault.kind === 'refusal' && FLOW_FAULTS.includes(fault.id)).map((fault) => option({ kind: 'fault', fault: fault.id }))}</optgroup>
<optgroup label="${t.variants}">${FAULTS.filter((fault) => fault.kind === 'acceptance' && FLOW_FAULTS.includes(fault.id)).map((fault) => option({ kind: 'fault', fault: fault.id }))}</optgroup>
<optgroup label="${t.errors}">${FLOW_ERRORS.map((error) => option({ kind: 'error', error: error.id }))}</optgroup>
</select>
<button type="submit" class="qa-use" data-testid="qa-answer-use">${t.use}</button>
</form>
</details>`;
}

/**
 * The line where the page's script says it is working (views/assets/authorization-page.js):
 * empty, so nothing is announced until then; `role=status` so it is announced when filled.
 */
export function progressLine(locale: Locale, clientName: string): SafeHtml {
  const t = EMULATOR_MESSAGES[locale].qa;
  return html`<p class="busy-status" role="status" data-busy-status data-testid="busy-status" data-text-working="${t.working}" data-text-returning="${t.returning(clientName, '{n}')}"></p>`;
}
