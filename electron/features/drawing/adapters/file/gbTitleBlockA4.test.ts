import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DrawingIndex } from '../../domain/bounds';
import { findFrames } from '../../domain/frames';
import { openDxfFile } from './openDxfFile';

/**
 * ezdxf (another program) draws a GB/T 14689 A4 sheet — trimmed edge, border with the 25 mm
 * binding margin — and the GB/T 10609.1 title block 180 mm wide against the border's lower right,
 * labels in the left cells and values beside them, at a scale factor k.
 */
const SHEET = `
import sys, ezdxf
w, h, k, out = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
scale = "1:1" if k == 1 else "1:%d" % k
doc = ezdxf.new("R2013")
msp = doc.modelspace()
def rect(x0, y0, x1, y1):
    msp.add_lwpolyline([(x0*k, y0*k), (x1*k, y0*k), (x1*k, y1*k), (x0*k, y1*k)], close=True)
def text(x, y, s):
    msp.add_text(s, height=3.5*k).set_placement((x*k, y*k))
rect(0, 0, w, h)
rect(25, 5, w - 5, h - 5)
tx = w - 5 - 180
rect(tx, 5, w - 5, 61)
for i in range(1, 7):
    msp.add_line((tx*k, (5 + 8*i)*k), ((w - 5)*k, (5 + 8*i)*k))
rows = [("图名", "支架"), ("图号", "CS-A4-001"), ("比例", scale), ("材料", "Q235")]
for i, (label, value) in enumerate(rows):
    y = 5 + (6 - i)*8 + 2.25
    text(tx + 2, y, label)
    text(tx + 25, y, value)
text(tx + 2, 5 + 2*8 + 2.25, "设计")
text(tx + 92, 5 + 2*8 + 2.25, "日期")
text(tx + 115, 5 + 2*8 + 2.25, "2026-12-04")
doc.saveas(out)
`;

const dir = mkdtempSync(path.join(tmpdir(), 'gb-a4-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const EZDXF = spawnSync('/usr/bin/python3', ['-c', 'import ezdxf'], { encoding: 'utf8' }).status === 0;
if (!EZDXF) console.log('skipping the A4 title-block checks: /usr/bin/python3 has no ezdxf to draw the sheets');

describe.skipIf(!EZDXF)('a GB/T 10609.1 title block on an A4 sheet', () => {
  it.each([
    ['portrait', 210, 297, 1],
    ['landscape', 297, 210, 1],
    ['portrait at 1:2', 210, 297, 2],
  ] as const)('is read from the %s sheet although it spans most of the sheet width', async (_name, w, h, k) => {
    const file = path.join(dir, `a4-${w}-${k}.dxf`);
    const run = spawnSync('/usr/bin/python3', ['-c', SHEET, String(w), String(h), String(k), file], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const frames = findFrames(new DrawingIndex((await openDxfFile(file)).document));
    expect(frames).toHaveLength(1);
    expect(frames[0]!.sheet).toMatchObject({ sheet: 'A4', orientation: w < h ? 'portrait' : 'landscape', scale: k });
    expect(frames[0]!.titleBlock.fields).toMatchObject({ title: '支架', drawingNo: 'CS-A4-001', scale: k === 1 ? '1:1' : `1:${k}`, material: 'Q235', date: '2026-12-04', designer: null });
  });
});
