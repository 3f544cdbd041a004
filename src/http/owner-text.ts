import { Type, type StringOptions } from '@sinclair/typebox';

/**
 * D39: names an owner reads (key, user and legal names, notes) are stored trimmed, and refused when blank or when
 * they hold characters that change how the text looks without being seen: bidirectional controls
 * (U+202A–U+202E, U+2066–U+2069) and zero-width characters (U+200B–U+200D, U+FEFF). A right-to-left override in
 * a key's name could otherwise make an approval read as something else. Where D39's list stops short, the same kinds
 * are refused too: the invisible direction marks (U+200E, U+200F, U+061C) and the zero-width word joiner and
 * invisible operators (U+2060–U+2064).
 *
 * A body or tool-input property declares itself such a text with `OwnerText`; the REST validator
 * (validation.ts) and the MCP server apply `cleanOwnerText` after the schema passed, so both surfaces share it.
 */
const MARK = 'x-owner-text';
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;

export const OwnerText = (options: StringOptions = {}) =>
  Type.String({
    ...options,
    description: `${options.description ? `${options.description}; ` : ''}trimmed; refused when blank or holding bidirectional controls or zero-width characters`,
    [MARK]: true,
  });

export interface TextProblem {
  /** JSON pointer of the refused property, e.g. `/name`. */
  pointer: string;
  message: string;
}

export function ownerTextProblem(value: string): string | null {
  if (INVISIBLE.test(value)) return 'must not contain bidirectional control or zero-width characters';
  if (value.trim() === '') return 'must not be blank';
  return null;
}

/**
 * Trims, in place, the `OwnerText` properties of an object validated by `schema` (top-level properties: every
 * such text is one), or answers the first refused one.
 */
export function cleanOwnerText(schema: unknown, data: unknown): TextProblem | null {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> } | null)?.properties;
  if (!properties || data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  for (const [key, property] of Object.entries(properties)) {
    const value = record[key];
    if (property?.[MARK] !== true || typeof value !== 'string') continue;
    const message = ownerTextProblem(value);
    if (message) return { pointer: `/${key}`, message };
    record[key] = value.trim();
  }
  return null;
}
