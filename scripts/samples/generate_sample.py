#!/usr/bin/python3
"""Generates CadSight's shippable sample drawing set (resources/samples/).

Run with the Debian ezdxf:  /usr/bin/python3 scripts/samples/generate_sample.py [out.dxf]

One model space holds three A3 landscape sheets (GB/T 14689 frame with a 25 mm binding margin,
GB/T 10609.1-style Chinese title block 图名/图号/比例/设计/审核/日期/版本 and
材料/重量/单位名称/批准/共 N 张 第 M 张, lettered in 仿宋), each with a small part,
dimensions and technical notes. A few problems are planted on purpose so a first review has
something to find (see resources/samples/README.md); everything else follows GB drawing practice
(layers per line type, text heights 3.5/5/7 mm, 1:1 scale). The output is byte-reproducible:
timestamps and GUIDs are fixed.
"""
import math
import os
import sys

# ezdxf orders some OBJECTS through sets: a fixed hash seed keeps the output byte-reproducible.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import ezdxf
from ezdxf.enums import TextEntityAlignment

SHEET_W, SHEET_H = 420.0, 297.0
SHEET_GAP = 30.0
OUT = sys.argv[1] if len(sys.argv) > 1 else "resources/samples/cadsight_sample_gb_a3_3frames.dxf"

# ezdxf's own switch for fixed dates/GUIDs, so regenerating produces the same bytes (the file is committed).
ezdxf.options.write_fixed_meta_data_for_testing = True
doc = ezdxf.new("R2010", setup=True)
doc.units = ezdxf.units.MM
doc.header["$INSUNITS"] = 4
doc.header["$MEASUREMENT"] = 1

doc.styles.new("GB_HZ", dxfattribs={"font": "simfang.ttf", "width": 0.7})
for name, color, linetype, lineweight in [
    ("图框", 7, "Continuous", 50),
    ("粗实线", 7, "Continuous", 50),
    ("细实线", 3, "Continuous", 25),
    ("中心线", 1, "CENTER", 25),
    ("尺寸标注", 4, "Continuous", 25),
    ("文字", 2, "Continuous", 25),
]:
    doc.layers.add(name, color=color, linetype=linetype, lineweight=lineweight)

dimstyle = doc.dimstyles.duplicate_entry("EZDXF", "GB_DIM")
dimstyle.dxf.dimtxt = 3.5
dimstyle.dxf.dimasz = 3.0
dimstyle.dxf.dimexe = 2.0
dimstyle.dxf.dimexo = 0.0
dimstyle.dxf.dimdec = 2
dimstyle.dxf.dimzin = 8  # GB practice: no trailing zeros (120, not 120.00)
dimstyle.dxf.dimlfac = 1  # ezdxf's EZDXF style assumes metres shown in cm (100); this drawing is in mm
dimstyle.dxf.dimtxsty = "GB_HZ"
dimstyle.dxf.dimtad = 1

msp = doc.modelspace()


def text(x, y, value, height, layer="文字", align=TextEntityAlignment.LEFT):
    msp.add_text(value, height=height, dxfattribs={"layer": layer, "style": "GB_HZ"}).set_placement((x, y), align=align)


def frame(ox, fields):
    """A3 landscape: trimmed sheet border, inner frame (binding margin 25 mm) and title block."""
    msp.add_lwpolyline([(ox, 0), (ox + SHEET_W, 0), (ox + SHEET_W, SHEET_H), (ox, SHEET_H)], close=True, dxfattribs={"layer": "图框", "lineweight": 25})
    msp.add_lwpolyline([(ox + 25, 5), (ox + 415, 5), (ox + 415, 292), (ox + 25, 292)], close=True, dxfattribs={"layer": "图框"})
    # Title block 180 x 56 in the bottom-right corner: 7 rows of label | value.
    left, bottom, width, row = ox + 235, 5.0, 180.0, 8.0
    msp.add_lwpolyline([(left, bottom), (left + width, bottom), (left + width, bottom + 7 * row), (left, bottom + 7 * row)], close=True, dxfattribs={"layer": "图框"})
    msp.add_line((left + 25, bottom), (left + 25, bottom + 7 * row), dxfattribs={"layer": "图框", "lineweight": 25})
    for i in range(1, 7):
        msp.add_line((left, bottom + i * row), (left + width, bottom + i * row), dxfattribs={"layer": "图框", "lineweight": 25})
    for i, (label, value) in enumerate(fields):
        y = bottom + (6 - i) * row + 2.25
        text(left + 3, y, label, 3.5)
        if value:
            text(left + 28, y, value, 3.5)


def center_cross(cx, cy, size):
    msp.add_line((cx - size, cy), (cx + size, cy), dxfattribs={"layer": "中心线"})
    msp.add_line((cx, cy - size), (cx, cy + size), dxfattribs={"layer": "中心线"})


def dim_linear(base, p1, p2, angle=0, override=None):
    dim = msp.add_linear_dim(base=base, p1=p1, p2=p2, angle=angle, dimstyle="GB_DIM", text=override or "<>", dxfattribs={"layer": "尺寸标注"})
    dim.render()
    # Store the measured value (group 42) as AutoCAD does, so readers need not recompute it.
    dim.dimension.dxf.actual_measurement = dim.dimension.get_measurement()


def dim_diameter(center, radius, angle, override=None):
    dim = msp.add_diameter_dim(center=center, radius=radius, angle=angle, dimstyle="GB_DIM", text=override or "<>", dxfattribs={"layer": "尺寸标注"})
    dim.render()
    dim.dimension.dxf.actual_measurement = dim.dimension.get_measurement()


def notes(ox, lines, height=5.0):
    text(ox + 40, 110, "技术要求", 7)
    for i, line in enumerate(lines):
        text(ox + 40, 100 - i * 8, line, height)


# Sheet 1: flange (法兰盘). Planted: a construction circle left on layer 0.
ox = 0.0
frame(ox, [("图名", "法兰盘"), ("图号", "CS-2026-001"), ("比例", "1:1"), ("设计", "张伟"), ("审核", "李娜"), ("日期", "2026-11-30"), ("版本", "A")])
cx, cy = ox + 150, 200
msp.add_circle((cx, cy), 60, dxfattribs={"layer": "粗实线"})
msp.add_circle((cx, cy), 30, dxfattribs={"layer": "粗实线"})
msp.add_circle((cx, cy), 45, dxfattribs={"layer": "中心线"})
for k in range(4):
    a = math.radians(45 + 90 * k)
    hx, hy = cx + 45 * math.cos(a), cy + 45 * math.sin(a)
    msp.add_circle((hx, hy), 5, dxfattribs={"layer": "粗实线"})
    center_cross(hx, hy, 7)
center_cross(cx, cy, 68)
msp.add_circle((cx, cy), 52, dxfattribs={"layer": "0"})  # planted: geometry on layer 0
dim_diameter((cx, cy), 60, 20)
dim_diameter((cx, cy), 30, 200)
dim_linear((cx - 60, cy - 75), (cx - 60, cy), (cx + 60, cy))
notes(ox + 220, ["1. 未注倒角 C1。", "2. 4×Ø10 孔均布于 Ø90 圆周。", "3. 去除毛刺，锐边倒钝。"])

# Sheet 2: bracket plate (支架). Planted: overridden dimension 210 on a 200 mm edge; a 4 mm note.
ox = SHEET_W + SHEET_GAP
frame(ox, [("图名", "支架"), ("图号", "CS-2026-002"), ("比例", "1:1"), ("设计", "张伟"), ("审核", "李娜"), ("日期", "2026-11-30"), ("版本", "A")])
px, py = ox + 60, 150
msp.add_lwpolyline([(px, py), (px + 200, py), (px + 200, py + 100), (px, py + 100)], close=True, dxfattribs={"layer": "粗实线"})
for hx in (px + 30, px + 170):
    msp.add_circle((hx, py + 50), 8, dxfattribs={"layer": "粗实线"})
    center_cross(hx, py + 50, 12)
dim_linear((px, py - 15), (px, py), (px + 200, py), override="210")  # planted: contradicts 200
dim_linear((px - 15, py), (px, py), (px, py + 100), angle=90)
dim_linear((px + 30, py + 115), (px + 30, py + 50), (px + 170, py + 50))
notes(ox + 220, ["1. 材料 Q235。", "2. 表面发黑处理。"])
text(ox + 60, 120, "注：安装孔配钻。", 4.0)  # planted: 4 mm is not in the height series

# Sheet 3: stepped shaft (轴). Planted: empty revision, a zero-length line and a duplicate line.
ox = 2 * (SHEET_W + SHEET_GAP)
frame(ox, [("图名", "轴"), ("图号", "CS-2026-003"), ("比例", "1:1"), ("设计", "张伟"), ("审核", "李娜"), ("日期", "2026-11-30"), ("版本", "")])
sx, sy = ox + 60, 200
profile = [(sx, sy - 15), (sx + 80, sy - 15), (sx + 80, sy - 25), (sx + 220, sy - 25), (sx + 220, sy - 15), (sx + 300, sy - 15)]
upper = [(x, 2 * sy - y) for x, y in profile]
msp.add_lwpolyline(profile, dxfattribs={"layer": "粗实线"})
msp.add_lwpolyline(upper, dxfattribs={"layer": "粗实线"})
for x in (sx, sx + 80, sx + 220, sx + 300):
    half = 15 if x in (sx, sx + 300) else 25
    msp.add_line((x, sy - half), (x, sy + half), dxfattribs={"layer": "粗实线"})
msp.add_line((sx - 10, sy), (sx + 310, sy), dxfattribs={"layer": "中心线"})
msp.add_line((sx + 80, sy - 25), (sx + 80, sy + 25), dxfattribs={"layer": "粗实线"})  # planted: duplicate
msp.add_line((sx + 150, sy + 40), (sx + 150, sy + 40), dxfattribs={"layer": "粗实线"})  # planted: zero length
dim_linear((sx, sy - 45), (sx, sy - 15), (sx + 300, sy - 15))
dim_linear((sx + 80, sy - 35), (sx + 80, sy - 25), (sx + 220, sy - 25))
dim_linear((sx - 20, sy - 15), (sx, sy - 15), (sx, sy + 15), angle=90, override="%%c30")
notes(ox + 40, ["1. 调质处理 HB220~250。", "2. 未注倒角 C1。"])

# GB/T 10609.1 fields of the title block's second column (material, weight, organisation,
# approver, 共 N 张 第 M 张). Drawn last so the handles of everything above stay as they were.
GB_FIELDS = [("材料", "Q235"), ("重量", "1.2 kg"), ("单位名称", "CadSight"), ("批准", "王强")]
for sheet_no in (1, 2, 3):
    left, bottom, row = (sheet_no - 1) * (SHEET_W + SHEET_GAP) + 235, 5.0, 8.0
    msp.add_line((left + 95, bottom), (left + 95, bottom + 7 * row), dxfattribs={"layer": "图框", "lineweight": 25})
    for i, (label, value) in enumerate(GB_FIELDS):
        y = bottom + (6 - i) * row + 2.25
        text(left + 98, y, label, 3.5)
        text(left + 128, y, value, 3.5)
    text(left + 98, bottom + 2 * row + 2.25, f"共 3 张 第 {sheet_no} 张", 3.5)

doc.saveas(OUT, encoding="utf-8")
print(OUT)
