/**
 * Who may choose how one flow is answered, and the choice itself (the model is qa/flow-answers.ts;
 * the chooser's form is views/flow-answer-chooser.ts, its post endpoints/identity-app.ts).
 * @see DECISIONS.md "Answering one flow"
 */
import type { EmulatorContext } from '../context';
import type { Interaction } from '../state';
import { NORMAL_ANSWER, type FlowAnswer } from './flow-answers';

/**
 * Whether the browser that sent `request` may choose how flows are answered: the QA panel's own
 * rule (qa/panel-access.ts), so a hosted demo whose panel is read-only or behind a password shows
 * no chooser to anyone who has not signed in to the panel.
 */
export async function mayChooseFlowAnswers(request: Request, context: Pick<EmulatorContext, 'panel'>): Promise<boolean> {
  const access = await context.panel.state(request);
  return access === 'open' || access === 'signed-in';
}

/** The answer chosen for an interaction, for its chooser; undefined when `request` may not choose. */
export async function flowAnswerFor(request: Request, context: Pick<EmulatorContext, 'panel'>, interaction: Interaction): Promise<FlowAnswer | undefined> {
  return (await mayChooseFlowAnswers(request, context)) ? (interaction.answer ?? NORMAL_ANSWER) : undefined;
}

/**
 * Chooses how the flow of `interaction` is answered: a fault is armed for its `state` (and any
 * chosen before is disarmed), an error is kept in the interaction for the redirect back. The
 * choice is recorded in the flow's trace (qa/flow-trace.ts). The caller writes the interaction back.
 */
export async function chooseFlowAnswer(context: Pick<EmulatorContext, 'faults' | 'traces'>, interaction: Interaction, answer: FlowAnswer): Promise<void> {
  await context.faults.armForFlow(interaction.request.state, interaction.clientId, answer.kind === 'fault' ? [answer.fault] : []);
  if (answer.kind === 'normal') delete interaction.answer;
  else interaction.answer = answer;
  await context.traces.record(interaction.request.state, interaction.clientId, {
    step: 'flow_answer',
    outcome: 'ok',
    summary:
      answer.kind === 'normal'
        ? 'QA chose the normal answer for this flow on its own pages.'
        : `QA chose ${answer.kind === 'fault' ? `the fault ${answer.fault}` : `the error ${answer.error}`} for this flow on its own pages.`,
    details: { chosen_with: 'chooser', faults: answer.kind === 'fault' ? [answer.fault] : [], ...(answer.kind === 'error' ? { error: answer.error } : {}) },
  });
}
