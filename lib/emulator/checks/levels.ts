/**
 * The two levels the emulator checks requests at (DECISIONS.md "Levels"):
 * - the default level accepts what the RFCs allow around the spec (claims beyond the thirteen of
 *   2.2, extra form parameters, a `null` claim request), as a lenient provider would;
 * - the strict level takes the spec by the letter: anything it does not list or shape is refused.
 * Each table of checks names, per row, the level its rule applies at; the level is read once per
 * request (context.ts `strict`) and passed down, never read again by a rule.
 * @see spec 2.1, 2.2, 2.3, 4.1, 4.2, 4.3
 */
import { describeValue } from '../errors';

/** `every`: a rule of the default level, applied at both levels; `strict`: applied at the strict level only. */
export type CheckLevel = 'every' | 'strict';

/** One row of a table of checks: the level it applies at, and the rule. */
export type Levelled<Rule> = readonly [level: CheckLevel, rule: Rule];

/** The rules of `table` that apply at this level, in table order. */
export function rulesAt<Rule>(table: readonly Levelled<Rule>[], strict: boolean): Rule[] {
  return table.filter(([level]) => level === 'every' || strict).map(([, rule]) => rule);
}

/**
 * The names of `names` that `listed` does not have, quoted for an error description
 * ("'nbf', 'jti'"), or undefined when there are none.
 */
export function describeUnlisted(names: Iterable<string>, listed: readonly string[]): string | undefined {
  const unlisted = [...names].filter((name) => !listed.includes(name));
  return unlisted.length > 0 ? unlisted.map((name) => describeValue(name)).join(', ') : undefined;
}
