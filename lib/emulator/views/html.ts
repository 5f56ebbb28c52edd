/**
 * Escaped HTML templates for the emulator's pages: every value interpolated into `html` is
 * escaped unless it is already `SafeHtml` (the result of another `html` template), so a page
 * built only from `html` templates cannot carry markup from its data.
 */

/** Markup that has been escaped already; anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
}

/**
 * Tagged template: escapes `& < > " '` in every interpolated value (so values are safe in text
 * and in quoted attributes), joins arrays, and leaves out undefined, null and false.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += renderValue(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === undefined || value === null || value === false) return '';
  return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
