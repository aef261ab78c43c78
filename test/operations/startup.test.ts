import { describe, expect, it } from 'vitest';
import { SERVICE_ENVIRONMENTS } from '../../src/lib/vocabulary.ts';
import { DEMO_PASSWORD, demoDataDecision, startupBanner, type BannerFacts } from '../../src/lib/startup.ts';

const facts = (f: Partial<BannerFacts>): BannerFacts => ({
  environment: 'local',
  port: 4000,
  where: 'PGlite',
  graphqlExplorer: true,
  decision: 'load',
  databaseEmpty: true,
  demoAccountsPresent: true,
  ...f,
});

describe('prod never loads demo data', () => {
  it('prod on an empty database loads nothing', () => {
    expect(demoDataDecision('prod', true)).toBe('never-in-prod');
    expect(demoDataDecision('prod', false)).toBe('never-in-prod');
  });

  it.each(SERVICE_ENVIRONMENTS.filter((e) => e !== 'prod'))('%s loads it on an empty database only', (environment) => {
    expect(demoDataDecision(environment, true)).toBe('load');
    expect(demoDataDecision(environment, false)).toBe('keep-existing');
  });
});

describe('outside prod, the demo logins are printed whenever the demo accounts are in the database; never in prod', () => {
  it('the start that loaded the demo data prints the logins', () => {
    const text = startupBanner(facts({ decision: 'load' })).join('\n');
    expect(text).toContain(DEMO_PASSWORD);
    expect(text).toContain('broker.admin@demo.test');
  });

  it('later starts that find the demo accounts print them too', () => {
    const text = startupBanner(facts({ decision: 'keep-existing', databaseEmpty: false })).join('\n');
    expect(text).toContain(DEMO_PASSWORD);
    expect(text).not.toContain('demo data loaded');
  });

  it('a later start on data without the demo accounts does not', () => {
    expect(
      startupBanner(facts({ decision: 'keep-existing', databaseEmpty: false, demoAccountsPresent: false })).join('\n'),
    ).not.toContain(DEMO_PASSWORD);
  });

  it('prod never does, even if asked to with a load decision', () => {
    for (const decision of ['load', 'keep-existing', 'never-in-prod'] as const) {
      const text = startupBanner(facts({ environment: 'prod', decision })).join('\n');
      expect(text).not.toContain(DEMO_PASSWORD);
      expect(text).not.toContain('@demo.test');
    }
  });

  it('prod on an empty database says how to load a catalogue', () => {
    expect(
      startupBanner(facts({ environment: 'prod', decision: 'never-in-prod', databaseEmpty: true })).join('\n'),
    ).toContain('npm run seed');
  });
});
