import { describe, expect, it } from 'vitest';
import { ownerTextProblem } from '../../../src/http/owner-text.js';
import { hasInvisibleCharacter } from './owner-text.js';

describe('invisible characters in a name, as the owner types it', () => {
  it('agrees with the service on every character of the Basic Multilingual Plane', () => {
    for (let c = 0x20; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = `ag${String.fromCharCode(c)}ent`;
      expect([c.toString(16), hasInvisibleCharacter(s)]).toEqual([c.toString(16), ownerTextProblem(s) !== null]);
    }
  });
});
