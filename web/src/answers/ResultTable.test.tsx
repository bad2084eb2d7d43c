// The rows a statement returned, as a student reads them: NULL told from the
// empty string, 50 rows then "Show all", the engine's 1000-row keep said in
// words, and every value text (a value that looks like HTML stays text).
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { numericColumn, ResultTable, rowsLine } from './ResultTable';
import { StatementAnswer } from './StatementAnswer';
import type { StatementReport } from '../engine/schema.gen';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function render(node: React.ReactNode): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root?.render(node));
  return host;
}

const cells = (host: HTMLElement) => [...host.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')]);
const button = (host: HTMLElement, name: RegExp) => [...host.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''));
const numbered = (n: number) => Array.from({ length: n }, (_, i) => [String(i + 1)]);

describe('ResultTable', () => {
  it('shows NULL as a marked NULL and the empty string as an empty cell', () => {
    const host = render(
      <ResultTable
        columns={['id', 'v']}
        rows={[
          ['1', 'a'],
          ['2', null],
          ['3', ''],
        ]}
        rowCount={3}
        label="rows"
      />,
    );
    expect([...host.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['id', 'v']);
    const [, two, three] = cells(host);
    expect(two?.[1]?.textContent).toBe('NULL');
    expect(two?.[1]?.hasAttribute('data-null')).toBe(true);
    expect(two?.[1]?.className).toBe('cell-null');
    expect(three?.[1]?.textContent).toBe('');
    expect(three?.[1]?.hasAttribute('data-null')).toBe(false);
    expect(host.querySelector('.rows-line')?.textContent).toBe('(3 rows)');
    // A numeric-looking column is right-aligned, as psql does; text is not.
    expect(three?.[0]?.className).toBe('num');
    expect(three?.[1]?.className).toBe('');
  });

  it('keeps the string "NULL" apart from NULL', () => {
    const host = render(<ResultTable columns={['v']} rows={[['NULL'], [null]]} rowCount={2} label="rows" />);
    const [text, none] = cells(host);
    expect(text?.[0]?.hasAttribute('data-null')).toBe(false);
    expect(none?.[0]?.hasAttribute('data-null')).toBe(true);
  });

  it('shows the first 50 rows, then all of them on "Show all", and folds again', () => {
    const host = render(<ResultTable columns={['n']} rows={numbered(120)} rowCount={120} label="rows" />);
    expect(cells(host)).toHaveLength(50);
    expect(host.querySelector('.rows-line')?.textContent).toBe('(120 rows)');
    expect(host.querySelector('[data-testid="rows-kept"]')).toBeNull();
    const all = button(host, /^Show all 120 rows$/);
    expect(all).toBeDefined();
    act(() => all?.click());
    expect(cells(host)).toHaveLength(120);
    expect(cells(host).at(-1)?.[0]?.textContent).toBe('120');
    act(() => button(host, /first 50 only/)?.click());
    expect(cells(host)).toHaveLength(50);
  });

  it('has no fold under 50 rows, and says "(1 row)" for one', () => {
    const host = render(<ResultTable columns={['n']} rows={numbered(1)} rowCount={1} label="rows" />);
    expect(host.querySelector('.rows-line')?.textContent).toBe('(1 row)');
    expect(host.querySelectorAll('button')).toHaveLength(0);
    expect(rowsLine(0)).toBe('(0 rows)');
  });

  it('says when the engine kept only the first 1000 of the rows', () => {
    const host = render(<ResultTable columns={['n']} rows={numbered(1000)} rowCount={5000} label="rows" />);
    expect(host.querySelector('.rows-line')?.textContent).toBe('(5000 rows)');
    expect(host.querySelector('[data-testid="rows-kept"]')?.textContent).toBe(
      'The engine keeps only the first 1\u202f000 of the 5\u202f000 rows; the count is exact.',
    );
    act(() => button(host, /^Show all 1\u202f000 rows kept$/)?.click());
    expect(cells(host)).toHaveLength(1000);
  });

  it('renders a value that looks like HTML as text', () => {
    const evil = '<img src=x onerror="alert(1)"><b>bold</b>';
    const host = render(<ResultTable columns={['<i>col</i>']} rows={[[evil]]} rowCount={1} label="rows" />);
    expect(host.querySelector('img')).toBeNull();
    expect(host.querySelector('b')).toBeNull();
    expect(host.querySelector('i')).toBeNull();
    expect(host.querySelector('th')?.textContent).toBe('<i>col</i>');
    // Long, so clamped: the whole value stays in the text and in its title.
    const long = host.querySelector('.cell-long');
    expect(long?.textContent).toBe(evil);
    expect(long?.getAttribute('title')).toBe(evil);
  });

  it("shows psql's title centred above and its footers below, as text, in place of the row count", () => {
    const host = render(
      <ResultTable
        columns={['Column', 'Type']}
        rows={[['id', 'integer']]}
        rowCount={1}
        label="rows"
        title={'Table "public.t"'}
        footers={['Indexes:', '    "t_pkey" PRIMARY KEY, btree (id)', '    "<b>x</b>" btree (v)']}
        rowsLine={false}
      />,
    );
    const caption = host.querySelector('caption');
    expect(caption?.textContent).toBe('Table "public.t"');
    // Inside the table, above its header: a screen reader names the table by it.
    expect(caption?.parentElement?.tagName).toBe('TABLE');
    const footers = host.querySelector('[data-testid="result-footers"]');
    expect(footers?.textContent).toBe('Indexes:\n    "t_pkey" PRIMARY KEY, btree (id)\n    "<b>x</b>" btree (v)');
    expect(footers?.querySelector('b')).toBeNull();
    // In the table's scrolling box, under the table.
    expect(footers?.parentElement?.className).toBe('result-scroll');
    expect(footers?.previousElementSibling?.tagName).toBe('TABLE');
    expect(host.querySelector('.rows-line')).toBeNull();
  });

  it('keeps "(N rows)" under a titled list, and shows no caption or footers without them', () => {
    const titled = render(
      <ResultTable columns={['Name']} rows={[['t']]} rowCount={1} label="rows" title="List of relations" />,
    );
    expect(titled.querySelector('caption')?.textContent).toBe('List of relations');
    expect(titled.querySelector('.rows-line')?.textContent).toBe('(1 row)');
    expect(titled.querySelector('[data-testid="result-footers"]')).toBeNull();
    act(() => root?.render(<ResultTable columns={['n']} rows={numbered(2)} rowCount={2} label="rows" />));
    expect(titled.querySelector('caption')).toBeNull();
    expect(titled.querySelector('.rows-line')?.textContent).toBe('(2 rows)');
  });

  it("opens folded again on another statement's rows", () => {
    const a = numbered(60);
    const host = render(<ResultTable columns={['n']} rows={a} rowCount={60} label="rows" />);
    act(() => button(host, /Show all/)?.click());
    expect(cells(host)).toHaveLength(60);
    act(() => root?.render(<ResultTable columns={['n']} rows={numbered(70)} rowCount={70} label="rows" />));
    expect(cells(host)).toHaveLength(50);
  });
});

describe('numericColumn', () => {
  it('reads a column as numeric when every value shown looks like a number', () => {
    expect(numericColumn([['1'], ['-2.5'], [null], ['1e3']], 0)).toBe(true);
    expect(numericColumn([['1'], ['x']], 0)).toBe(false);
    expect(numericColumn([[null]], 0)).toBe(false);
    expect(numericColumn([['']], 0)).toBe(false);
  });
});

function statement(over: Partial<StatementReport>): StatementReport {
  return {
    sql: 'select 1;',
    line: 1,
    run: 1,
    tag: 'SELECT 1',
    columns: [],
    rows: [],
    row_count: 0,
    explain: null,
    notices: [],
    title: null,
    footers: [],
    rows_line: true,
    why: [],
    metrics: {},
    relations: {},
    replicas: [],
    virtual_ms: 0,
    ...over,
  };
}

describe('StatementAnswer', () => {
  it('shows the command tag, the notices as psql prints them, and the rows', () => {
    const host = render(
      <StatementAnswer
        id="pg"
        index={2}
        statement={statement({
          sql: 'select * from t order by id;',
          line: 3,
          tag: 'SELECT 1',
          columns: ['id'],
          rows: [['1']],
          row_count: 1,
          notices: ['relation "t" already exists, skipping'],
        })}
      />,
    );
    expect(host.querySelector('[data-testid="tag-pg"]')?.textContent).toBe('SELECT 1');
    expect(host.querySelector('[data-testid="notices-pg"]')?.textContent).toBe('NOTICE:  relation "t" already exists, skipping');
    expect(host.querySelector('.answer-sql')?.textContent).toBe('line 3: select * from t order by id;');
    expect(cells(host)).toHaveLength(1);
  });

  it('shows a tag alone for a statement without rows, and no table for an EXPLAIN', () => {
    const insert = render(<StatementAnswer id="yb" index={0} statement={statement({ tag: 'INSERT 0 10' })} />);
    expect(insert.querySelector('[data-testid="tag-yb"]')?.textContent).toBe('INSERT 0 10');
    expect(insert.querySelector('table')).toBeNull();
    act(() =>
      root?.render(
        <StatementAnswer
          id="yb"
          index={0}
          statement={statement({ tag: 'EXPLAIN', columns: ['QUERY PLAN'], explain: 'Seq Scan on t', row_count: 1 })}
        />,
      ),
    );
    expect(insert.querySelector('table')).toBeNull();
  });

  it("shows a describe command's title and footers, and no row count when psql prints none", () => {
    const host = render(
      <StatementAnswer
        id="yb"
        index={4}
        statement={statement({
          sql: '\\d t',
          line: 5,
          tag: '',
          columns: ['Column', 'Type', 'Collation', 'Nullable', 'Default'],
          rows: [['id', 'integer', '', 'not null', '']],
          row_count: 1,
          title: 'Table "public.t"',
          footers: ['Indexes:', '    "t_pkey" PRIMARY KEY, lsm (id HASH)'],
          rows_line: false,
        })}
      />,
    );
    expect(host.querySelector('caption')?.textContent).toBe('Table "public.t"');
    expect(host.querySelector('[data-testid="result-footers"]')?.textContent).toBe(
      'Indexes:\n    "t_pkey" PRIMARY KEY, lsm (id HASH)',
    );
    expect(host.querySelector('.rows-line')).toBeNull();
    expect(host.querySelector('[data-testid="tag-yb"]')).toBeNull();
    expect(cells(host)).toHaveLength(1);
  });

  it('folds at 10 rows in a lesson or an embed', () => {
    const host = render(
      <StatementAnswer id="pg" index={0} compact statement={statement({ columns: ['n'], rows: numbered(30), row_count: 30 })} />,
    );
    expect(cells(host)).toHaveLength(10);
  });
});
