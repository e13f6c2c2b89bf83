import { describe, expect, it } from 'vitest';
import { csvField, csvFileName, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes fields with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField(-3)).toBe('-3');
  });

  it('neutralises text a spreadsheet would run as a formula (=, +, -, @, tab, CR)', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvField('+1 555')).toBe("'+1 555");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('a=b')).toBe('a=b');
  });

  it('writes a BOM, the header line and CRLF-ended rows', () => {
    expect(toCsv(['Name', 'Note'], [['Zoë', 'a,b'], ['Bo', null]])).toBe('\uFEFFName,Note\r\nZoë,"a,b"\r\nBo,\r\n');
  });

  it("names the file after the list and the viewer's date", () => {
    expect(csvFileName('certificates', new Date(2026, 10, 9, 23, 30))).toBe('certificates-2026-11-09.csv');
  });
});
