/** ABN rules and the ABN Lookup answer, without I/O (src/modules/abn/abn.ts). */
import { describe, expect, it } from 'vitest';
import {
  checkAbn,
  isValidAbn,
  monthsBetween,
  normaliseAbn,
  ABN_BUSINESS_NAMES_MAX,
  parseAbnDetails,
  unwrapJsonp,
} from '../../src/modules/abn/abn.ts';
import { abnDetailsUrl, detailsOf } from '../../src/modules/abn/service.ts';

describe('ABN checksum (subtract 1 from the first digit, weights 10,1,3,5,7,9,11,13,15,17,19, sum mod 89 = 0)', () => {
  it('accepts real ABNs', () => {
    for (const abn of [
      '51 824 753 556',
      '33 051 775 556',
      '49 004 028 077',
      '48 123 123 124',
      '88 000 014 675',
      '53 004 085 616',
    ]) {
      expect(isValidAbn(normaliseAbn(abn)), abn).toBe(true);
      expect(checkAbn(abn)).toEqual({ ok: true, abn: normaliseAbn(abn) });
    }
  });

  it('refuses a wrong check digit, a transposition, the wrong length or anything but digits', () => {
    for (const abn of [
      '51824753557',
      '15824753556',
      '51824735556',
      '12345678901',
      '00000000000',
      '5182475355',
      '518247535560',
      '5182475355a',
      '51-824-753-556',
      '',
    ]) {
      expect(checkAbn(abn).ok, abn).toBe(false);
    }
    expect(isValidAbn('51824753556 ')).toBe(false); // isValidAbn expects a normalised ABN
  });

  it('normalising strips spaces (and other whitespace) only', () => {
    expect(normaliseAbn(' 51 824 753 556 ')).toBe('51824753556');
    expect(normaliseAbn('51\t824\u00a0753 556')).toBe('51824753556');
    expect(checkAbn('   ')).toMatchObject({ ok: false, message: 'This field may not be blank.' });
    expect(checkAbn('518 247')).toMatchObject({ ok: false, message: 'An ABN is 11 digits.' });
  });
});

describe('whole months between two dates (abn_age, gst_age)', () => {
  it.each([
    ['2020-01-15', '2020-01-15', 0],
    ['2020-01-15', '2020-02-14', 0],
    ['2020-01-15', '2020-02-15', 1],
    ['2020-01-15', '2021-01-14', 11],
    ['2020-01-15', '2021-01-15', 12],
    ['2000-02-22', '2026-11-21', 320],
    ['2000-02-22', '2026-11-22', 321],
    // A month is complete on the last day of a month too short to have the start's day.
    ['2024-01-31', '2024-02-28', 0],
    ['2024-01-31', '2024-02-29', 1],
    ['2023-01-31', '2023-02-28', 1],
    ['2024-03-31', '2024-04-30', 1],
    ['2024-01-31', '2024-03-30', 1],
    ['2024-01-31', '2024-03-31', 2],
    ['2020-02-29', '2021-02-28', 12],
    ['2020-02-29', '2024-02-28', 47],
    ['2020-02-29', '2024-02-29', 48],
    ['2024-12-31', '2025-01-01', 0],
    ['2024-12-01', '2025-01-01', 1],
    // A date in the future is not an age.
    ['2026-12-01', '2026-11-21', 0],
  ])('%s to %s is %i', (from, to, months) => {
    expect(monthsBetween(from, to)).toBe(months);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => monthsBetween('2024-02-30', '2024-03-01')).toThrow(RangeError);
    expect(() => monthsBetween('2024-1-01', '2024-03-01')).toThrow(RangeError);
  });
});

const ATO = {
  Abn: '51824753556',
  AbnStatus: 'Active',
  AbnStatusEffectiveFrom: '2000-02-22',
  Acn: '',
  AddressDate: '2018-11-05',
  AddressPostcode: '2600',
  AddressState: 'ACT',
  BusinessName: [],
  EntityName: 'AUSTRALIAN TAXATION OFFICE',
  EntityTypeCode: 'CGE',
  EntityTypeName: 'Commonwealth Government Entity',
  Gst: '2000-07-01',
  Message: '',
};
const NOT_FOUND = {
  Abn: '',
  AbnStatus: '',
  AbnStatusEffectiveFrom: '',
  Acn: '',
  AddressDate: null,
  AddressPostcode: '',
  AddressState: '',
  BusinessName: [],
  EntityName: '',
  EntityTypeCode: '',
  EntityTypeName: null,
  Gst: null,
  Message: 'No record found',
};
const jsonp = (v: unknown) => `c(${JSON.stringify(v)})`;

describe("reading ABN Lookup's JSONP answer", () => {
  it('reads a record, tidying "" to null', () => {
    const answer = parseAbnDetails(jsonp({ ...ATO, AddressState: '', BusinessName: ['TAX HQ', ' '] }));
    expect(answer).toEqual({
      kind: 'found',
      record: {
        abn: '51824753556',
        abnStatus: 'Active',
        abnStatusEffectiveFrom: '2000-02-22',
        entityName: 'AUSTRALIAN TAXATION OFFICE',
        entityTypeName: 'Commonwealth Government Entity',
        gstFrom: '2000-07-01',
        businessNames: ['TAX HQ'],
        state: null,
        postcode: '2600',
      },
    });
    expect(parseAbnDetails(`${jsonp(ATO)};\n`).kind).toBe('found');
    expect(parseAbnDetails(JSON.stringify(ATO)).kind).toBe('found');
    expect(parseAbnDetails(jsonp({ ...ATO, Gst: null })).kind).toBe('found');
    expect(parseAbnDetails(jsonp({ ...ATO, Gst: '' }))).toMatchObject({ record: { gstFrom: null } });
    expect(parseAbnDetails(jsonp({ ...ATO, AbnStatusEffectiveFrom: '2000-02-22T00:00:00' }))).toMatchObject({
      record: { abnStatusEffectiveFrom: '2000-02-22' },
    });
  });

  it('"No record found" (or an empty Abn) is not_found; another message of its own (a bad GUID) is refused', () => {
    expect(parseAbnDetails(jsonp(NOT_FOUND))).toEqual({ kind: 'not_found', message: 'No record found' });
    expect(parseAbnDetails(jsonp({ ...NOT_FOUND, Message: '' })).kind).toBe('not_found');
    expect(
      parseAbnDetails(jsonp({ ...NOT_FOUND, Message: 'The GUID entered is not recognised as a Registered Party' }))
        .kind,
    ).toBe('refused');
    expect(parseAbnDetails(jsonp({ ...ATO, Message: 'Service temporarily unavailable' })).kind).toBe('refused');
  });

  it('anything it cannot trust is invalid: bad JSON, not an object, fields of the wrong type', () => {
    for (const body of ['', 'c(', 'c({"Abn":', '<html>Server Error</html>', 'c([])', 'null', 'c("x")', 'x({})extra']) {
      expect(parseAbnDetails(body).kind, body).toBe('invalid');
    }
    const wrong: Record<string, unknown>[] = [
      { Abn: 51824753556 },
      { Abn: '5182475355' },
      { AbnStatus: 1 },
      { AbnStatus: '' },
      { EntityName: null },
      { EntityName: ['x'] },
      { AbnStatusEffectiveFrom: '22/02/2000' },
      { AbnStatusEffectiveFrom: '2000-02-30' },
      { AbnStatusEffectiveFrom: '' },
      { Gst: 'yes' },
      { Gst: 20000701 },
      { BusinessName: 'TAX HQ' },
      { BusinessName: [1] },
      { Message: 42 },
      { AddressPostcode: 2600 },
    ];
    for (const patch of wrong)
      expect(parseAbnDetails(jsonp({ ...ATO, ...patch })).kind, JSON.stringify(patch)).toBe('invalid');
  });

  it('unwraps the callback the request named', () => {
    expect(unwrapJsonp('c({"a":1})')).toEqual({ a: 1 });
    expect(() => unwrapJsonp('c({"a":1}')).toThrow();
  });
});

describe('business names: the first ABN_BUSINESS_NAMES_MAX the register lists', () => {
  it('keeps the first 100 of a longer list, blanks dropped first', () => {
    const names = [' ', ...Array.from({ length: ABN_BUSINESS_NAMES_MAX + 50 }, (_, n) => `NAME ${n}`)];
    const answer = parseAbnDetails(jsonp({ ...ATO, BusinessName: names }));
    expect(answer.kind === 'found' && answer.record.businessNames).toEqual(names.slice(1, ABN_BUSINESS_NAMES_MAX + 1));
  });
});

describe('the answer and the call', () => {
  it('ages count to today; a cancelled ABN has no registration date and no age', () => {
    const found = parseAbnDetails(jsonp(ATO));
    if (found.kind !== 'found') throw new Error('expected a record');
    expect(detailsOf(found.record, '2026-11-21')).toMatchObject({
      abn_registered_from: '2000-02-22',
      abn_age: 320,
      gst_registered_from: '2000-07-01',
      gst_age: 316,
    });
    expect(detailsOf({ ...found.record, gstFrom: null }, '2026-11-21')).toMatchObject({
      gst_registered_from: null,
      gst_age: null,
    });
    expect(
      detailsOf(
        { ...found.record, abnStatus: 'Cancelled', abnStatusEffectiveFrom: '2015-07-01', gstFrom: null },
        '2026-11-21',
      ),
    ).toMatchObject({
      abn_status: 'Cancelled',
      abn_status_effective_from: '2015-07-01',
      abn_registered_from: null,
      abn_age: null,
    });
  });

  it('asks AbnDetails.aspx with the ABN, callback c and the GUID', () => {
    const url = new URL(abnDetailsUrl('https://abr.business.gov.au/', 'g-u-i-d', '51824753556'));
    expect(`${url.origin}${url.pathname}`).toBe('https://abr.business.gov.au/json/AbnDetails.aspx');
    expect(Object.fromEntries(url.searchParams)).toEqual({ abn: '51824753556', callback: 'c', guid: 'g-u-i-d' });
  });
});
