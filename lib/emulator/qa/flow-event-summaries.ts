/**
 * A flow's trace worded when it is read (the QA API, GET {base}/qa/flow): the trace stores each
 * event's facts (its step, outcome and details, flow-trace.ts), and this sentence is made from
 * them, in English, the QA API's one language.
 * @see DECISIONS.md "The QA API and the flow trace"
 */
import { MAX_TRACE_STRING, type FlowEvent, type FlowEventDetail } from './flow-trace';

/** One English sentence saying what the event of a flow of `clientId` was. */
export function summaryOf(event: FlowEvent, clientId: string): string {
  const sentence = wordsOf(event, clientId);
  return sentence.length > MAX_TRACE_STRING ? `${sentence.slice(0, MAX_TRACE_STRING - 1)}…` : sentence;
}

function wordsOf({ step, outcome, details }: FlowEvent, clientId: string): string {
  const text = (name: string) => String(details[name] ?? '');
  const list = (name: string) => listOf(details[name]);
  const withFaults = (words: string) => (list('faults').length > 0 ? `${words}${list('faults').join(', ')}` : '');
  switch (step) {
    case 'par':
      if (outcome === 'refused') return `The pushed authorization request was refused with ${text('status')} ${text('error')}.`;
      if (outcome === 'fault') return `The fault ${text('fault')} answered the pushed authorization request with ${text('status')} ${text('error')}.`;
      return `The pushed authorization request of client ${clientId} was accepted.`;
    case 'authorization_page':
      return `The authorization page was opened for client ${text('client_id')}.`;
    case 'flow_answer': {
      if (details.chosen_with === 'qa_api') {
        const faults = list('faults').length > 0 ? list('faults').join(', ') : 'no fault';
        return `QA chose ${faults} and ${details.given_name === 'persona' ? "the persona's given name" : 'a given name'} for this flow through the QA API.`;
      }
      const [fault] = list('faults');
      if (fault !== undefined) return `QA chose the fault ${fault} for this flow on its own pages.`;
      if (details.error !== undefined) return `QA chose the error ${text('error')} for this flow on its own pages.`;
      return 'QA chose the normal answer for this flow on its own pages.';
    }
    case 'decision':
      return outcome === 'ok' ? `The verification was approved as persona ${text('persona')}.` : `The verification was denied with ${text('error')}.`;
    case 'redirect': {
      // A redirect changed on purpose without a fault carried the error QA chose for the flow.
      const chosen = outcome === 'fault' && list('faults').length === 0;
      const how = chosen ? ', an error QA chose for this flow.' : `${withFaults(', changed by ')}.`;
      return `The browser was sent back to ${originOf(text('redirect_uri'))} with ${list('parameters').join(', ')}${how}`;
    }
    case 'token':
      return details.error === undefined
        ? `The token request was accepted${withFaults(', with ')}.`
        : `The token request was answered ${text('status')} ${text('error')}${withFaults(' by the fault ')}.`;
    case 'id_token': {
      const encryption = details.jwe_alg === undefined ? 'not encrypted' : `encrypted ${text('jwe_alg')} / ${text('jwe_enc')}`;
      return `An ID token was issued, signed ${text('alg')} and ${encryption}${withFaults(', with ')}.`;
    }
    case 'token_response': {
      const members = list('members');
      return `The token endpoint answered ${text('status')} with ${members.length > 0 ? members.join(', ') : 'no JSON members'}.`;
    }
  }
}

function listOf(value: FlowEventDetail | undefined): string[] {
  return Array.isArray(value) ? value : [];
}

/** The origin of a redirect URI as recorded (cut, perhaps), or the URI itself when it is not one. */
function originOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
}
