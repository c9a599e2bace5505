import { fillPromptTemplate } from '@aiplatform/contracts';

/** One empty value per variable: the fill form's starting state. */
export function emptyValues(variables: readonly string[]): Record<string, string> {
  return Object.fromEntries(variables.map((name) => [name, '']));
}

/**
 * The text the composer receives: the template with each variable replaced by what was
 * typed (a value left empty replaces it with nothing, as the person chose to leave it out).
 */
export function filledText(content: string, variables: readonly string[], values: Record<string, string | undefined>) {
  const complete = Object.fromEntries(variables.map((name) => [name, values[name] ?? '']));
  return fillPromptTemplate(content, complete);
}

/** True when the composer's text opens the picker: `/` typed into an empty box. */
export function opensPicker(key: string, value: string): boolean {
  return key === '/' && value === '';
}
