import { layoutPdf, runningLines } from './pdf-layout';
import type { PdfLine } from './pdf-layout';

const page = (...lines: [string, number][]): PdfLine[] => lines.map(([text, y]) => ({ text, y }));

describe('layoutPdf running headers and footers', () => {
  it('removes a header and a page-number footer that recur on every page', () => {
    const bodies = ['Unpack the pump.', 'Mount it level.', 'Prime the line.', 'Start the motor.'];
    const pages = bodies.map((body, i) => page(['Service manual', 800], [body, 700], [`Page ${i + 1}`, 40]));
    const laid = layoutPdf(pages, []);
    expect(laid.removedLines).toBe(8);
    expect(laid.text).not.toMatch(/Service manual|Page \d/);
    expect(laid.text).toMatch(/Prime the line\./);
  });

  it("never removes a page's only line, even when every page's line differs only in digits", () => {
    const pages = [1, 2, 3, 4, 5].map((n) => page([`Reading ${n * 17} of sensor 4`, 700]));
    expect(runningLines(pages).size).toBe(0);
    const laid = layoutPdf(pages, []);
    expect(laid.removedLines).toBe(0);
    for (const n of [1, 2, 3, 4, 5]) expect(laid.text).toContain(`Reading ${n * 17} of sensor 4`);
  });

  it('keeps single-line pages while removing the header of the framed pages beside them', () => {
    const framed = ['Revenue grew.', 'Costs fell.', 'Staff doubled.', 'Outlook is fair.'].map((body) =>
      page(['Annual report', 800], [body, 700]),
    );
    const single = [page(['Annual report', 800])];
    const laid = layoutPdf([...framed, ...single], []);
    expect(laid.removedLines).toBe(4);
    expect(laid.text.match(/Annual report/g)).toHaveLength(1);
  });
});
