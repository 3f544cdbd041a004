/**
 * D39: names an owner reads refuse characters that change how text looks without being seen (pasted text may carry
 * them). The set is the service's (`src/http/owner-text.ts`); a unit test checks the two agree on every character.
 */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;

export const hasInvisibleCharacter = (s: string): boolean => INVISIBLE.test(s);
