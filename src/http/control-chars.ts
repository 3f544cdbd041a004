/**
 * D30: text in requests refuses C0 control characters (U+0000–U+001F) other than tab and newline. One rule for
 * every field, single-line or not, so there is no per-field list to keep in step; single-line fields (names,
 * ids, keys) still accept a newline, which is harmless text there. NUL matters most: PostgreSQL cannot store it.
 */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a) return true;
  }
  return false;
}

/**
 * The JSON pointer (`/note`, `/whitelist_cbus/1`, `''` for the root) of the first string value holding a refused
 * control character, or null. Object keys are not checked: bodies refuse unknown properties anyway.
 */
export function findControlCharacter(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? pointer : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = findControlCharacter(value[i], `${pointer}/${i}`);
      if (at !== null) return at;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = findControlCharacter(v, `${pointer}/${k}`);
      if (at !== null) return at;
    }
  }
  return null;
}

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';
