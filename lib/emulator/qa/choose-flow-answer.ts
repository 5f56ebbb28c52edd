/**
 * Who may choose how one flow is answered (the model is qa/flow-answers.ts; the chooser's form is
 * views/flow-answer-chooser.ts, its post endpoints/identity-app.ts, which tells the choice as the
 * event `flow_answer.chosen`: qa/fault-listeners.ts arms a fault chosen, qa/flow-log.ts records it).
 * @see DECISIONS.md "Answering one flow"
 */
import type { EmulatorContext } from '../context';
import type { Interaction } from '../state';
import { NORMAL_ANSWER, type FlowAnswer } from './flow-answers';

/**
 * Whether the browser that sent `request` may choose how flows are answered: the QA panel's own
 * rule (qa/panel-access.ts), so a hosted demo whose panel is read-only or behind a password shows
 * no chooser to anyone who has not signed in to the panel; and nobody where the host turned the
 * chooser off (a demo in front of a customer).
 */
export async function mayChooseFlowAnswers(request: Request, context: Pick<EmulatorContext, 'panel' | 'flowAnswerChooser'>): Promise<boolean> {
  if (!context.flowAnswerChooser) return false;
  const access = await context.panel.state(request);
  return access === 'open' || access === 'signed-in';
}

/** The answer chosen for an interaction, for its chooser; undefined when `request` may not choose. */
export async function flowAnswerFor(
  request: Request,
  context: Pick<EmulatorContext, 'panel' | 'flowAnswerChooser'>,
  interaction: Interaction,
): Promise<FlowAnswer | undefined> {
  return (await mayChooseFlowAnswers(request, context)) ? (interaction.answer ?? NORMAL_ANSWER) : undefined;
}
