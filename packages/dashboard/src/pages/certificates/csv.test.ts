import { describe, expect, it } from 'vitest';
import { parseCsv, rejectedRows, withDefaultColumn } from './csv';

describe('parseCsv', () => {
  it('reads quoted cells, doubled quotes, CRLF and skips blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n1,2\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', '2'],
    ]);
  });
});

describe('rejectedRows', () => {
  const csv = 'recipient_name,program_title,issue_date\nAda,Engines,2026-05-01\nGrace,Compilers,not-a-date\nAlan,,2026-05-02\n';

  it('puts each error beside its row (line 1 is the header) with the row cells', () => {
    const { rows, general } = rejectedRows(csv, [
      { path: 'certificates.1.issue_date', message: 'must be a date (YYYY-MM-DD)' },
      { path: 'certificates.2.program_title', message: 'is required' },
      { path: '(csv)', message: 'has an unknown column' },
    ]);
    expect(rows).toEqual([
      { line: 3, cells: { recipient_name: 'Grace', program_title: 'Compilers', issue_date: 'not-a-date' }, errors: [{ column: 'issue_date', message: 'must be a date (YYYY-MM-DD)' }] },
      { line: 4, cells: { recipient_name: 'Alan', program_title: '', issue_date: '2026-05-02' }, errors: [{ column: 'program_title', message: 'is required' }] },
    ]);
    expect(general).toEqual([{ path: '(csv)', message: 'has an unknown column' }]);
  });
});

describe('withDefaultColumn', () => {
  it("adds the batch form's template to the rows naming none, keeping those that name one and every other cell", () => {
    const csv = 'recipient_name,program_title,issue_date\r\n"Obi, Ada",Engines,2026-05-01\r\n\r\nGrace,"say ""hi""",2026-05-02\r\n';
    expect(parseCsv(withDefaultColumn(csv, 'template_id', 'tpl_1'))).toEqual([
      ['recipient_name', 'program_title', 'issue_date', 'template_id'],
      ['Obi, Ada', 'Engines', '2026-05-01', 'tpl_1'],
      ['Grace', 'say "hi"', '2026-05-02', 'tpl_1'],
    ]);
    const named = 'recipient_name,template_id,program_title\nAda,tpl_9,Engines\nGrace,,Compilers\n';
    expect(parseCsv(withDefaultColumn(named, 'template_id', 'tpl_1'))).toEqual([
      ['recipient_name', 'template_id', 'program_title'],
      ['Ada', 'tpl_9', 'Engines'],
      ['Grace', 'tpl_1', 'Compilers'],
    ]);
    expect(withDefaultColumn(named, 'template_id', '')).toBe(named);
  });
});
