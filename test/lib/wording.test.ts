/** Authentication 11: client wording. Mobile variants state a fact only: no plan, no price, no link. */
import { describe, expect, it } from 'vitest';
import { WORDING, clientKind, say, type WordingKey } from '../../src/lib/wording.ts';
import { PLAN_TERMS } from '../../src/lib/plans.ts';
import { PLANS } from '../../src/lib/vocabulary.ts';

const params = { limit: 20, used: 20, metric: 'matrix' };
const planWords = [...PLANS, ...Object.values(PLAN_TERMS).map((t) => t.plan_name), 'upgrade', 'subscribe', 'plan'];

describe('X-Service-Client: absent means web; ios, android and unknown values read as mobile', () => {
  it.each([
    [undefined, 'web'],
    ['', 'web'],
    ['web', 'web'],
    ['ios', 'mobile'],
    ['android', 'mobile'],
    ['blackberry', 'mobile'],
  ])('%s -> %s', (header, kind) => {
    expect(clientKind(header as string | undefined)).toBe(kind);
  });
});

describe('every mobile sentence states a fact only', () => {
  for (const key of Object.keys(WORDING) as WordingKey[]) {
    it(key, () => {
      const text = say(key, 'mobile', params);
      expect(text.length).toBeGreaterThan(0);
      for (const word of planWords)
        expect(text.toLowerCase(), `names "${word}"`).not.toMatch(new RegExp(`\\b${word.toLowerCase()}\\b`));
      expect(text, 'a price').not.toMatch(/\$|\baud\b|\bper month\b|\/mo\b/i);
      expect(text, 'a link').not.toMatch(/https?:|www\.|\/[a-z]|\.com|\.au\b/i);
    });
  }
});

describe('web wording keeps the existing sentences (it may name plans and pages)', () => {
  it('the cap_hit web message points to billing', () => {
    expect(say('cap_hit_message', 'web', params)).toMatch(/billing/);
  });
});
