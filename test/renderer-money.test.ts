/**
 * Money as staff read it (issue 47, point 5): a total in its currency's digits, rounded half-even for the
 * eye only ($26.4969 → $26.50; the exact value stays stored and exported).
 */
import { describe, expect, it } from 'vitest';
import { currencyDigits, moneyTotal, roundHalfEven } from '../renderer/format.ts';

describe('money on the screens', () => {
  it('rounds half-even, on the exact decimal text', () => {
    expect(roundHalfEven('26.4969', 2)).toBe('26.50');
    expect(roundHalfEven('0.125', 2)).toBe('0.12');
    expect(roundHalfEven('0.135', 2)).toBe('0.14');
    expect(roundHalfEven('0.1250001', 2)).toBe('0.13');
    expect(roundHalfEven('2.5', 0)).toBe('2');
    expect(roundHalfEven('3.5', 0)).toBe('4');
    expect(roundHalfEven('-1.005', 2)).toBe('-1.00');
    expect(roundHalfEven('-0.004', 2)).toBe('0.00');
    expect(roundHalfEven('12', 2)).toBe('12.00');
    expect(roundHalfEven('99999999999999999.995', 2)).toBe('100000000000000000.00');
  });

  it("shows a total in its currency's digits", () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits(null)).toBe(2);
    expect(moneyTotal('26.4969', 'USD')).toMatch(/26\.50$/);
    expect(moneyTotal('26.4969', 'USD')).not.toContain('4969');
    expect(moneyTotal('1234.5', 'JPY')).toMatch(/1,234$/);
    expect(moneyTotal('1.2345', 'KWD')).toMatch(/1\.234$/);
    expect(moneyTotal('7.125', null)).toBe('7.12');
  });
});
